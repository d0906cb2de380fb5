// Aprende a jugar (issue 55): the rules course in the browser. The page knows
// no chess rules: every try of an exercise goes to the server
// (POST /api/aprender/jugar with the exercise's tries so far), which answers
// the verdict, the reason of a refusal (from the rules library), the
// position after it and the stars. Pages: /aprender (the stages with their
// stars), /aprender/{stage} (the exercises), /aprender/coordenadas (the
// coordinates trainer). An account's stars are kept by the server (it
// replays the tries again); a guest's tries are kept in this browser and
// joined to the account at login (POST /api/aprender/unir).
import { moveWords } from './speech.js';
import { boardKeys } from './boardkeys.js';

const TEXTS = {
  es: {
    title: 'Aprende a jugar',
    intro: 'Las reglas del ajedrez paso a paso, con las palabras de los textos fundacionales. Cada etapa cita el artículo que enseña; las jugadas las juzga la biblioteca de reglas.',
    stage: (n) => `Etapa ${n}`,
    exercises: (n) => `${n} ejercicios`,
    exercise: (i, n) => `Ejercicio ${i} de ${n}`,
    stars: (s, m) => `${s} de ${m} estrellas`,
    total: (s, m) => `Tu progreso: ${s} de ${m} estrellas`,
    guest_note: 'Como invitado, tu progreso se guarda en este navegador; al entrar con tu cuenta se une a ella.',
    joined: (n) => `Se unió a tu cuenta el progreso de ${n} ejercicios de este navegador.`,
    join_refused: (msg) => `El progreso de este navegador no se pudo unir: ${msg}`,
    kid: 'Modo niños (piezas grandes, sin reloj)',
    coords: 'Coordenadas',
    coords_intro: 'Encuentra la casilla o di su nombre. Columnas de la a a la h, filas del 1 al 8.',
    back: 'Todas las etapas',
    next_ex: 'Siguiente ejercicio',
    next_stage: 'Siguiente etapa',
    again: 'Repetir',
    solved: (s) => `¡Bien! ${'★'.repeat(s)}${'☆'.repeat(3 - s)} (${s} de 3 estrellas)`,
    progress_ok: 'Bien. Sigue.',
    already: 'Este ejercicio ya está resuelto.',
    wrong: 'No es correcto',
    stage_done: (s, m) => `Etapa terminada: ${s} de ${m} estrellas.`,
    write_label: 'Escribe la jugada en notación española',
    write_send: 'Comprobar',
    touch_help: 'Toca la casilla en el tablero (o muévete con las flechas y pulsa Intro).',
    move_help: 'Mueve con el ratón, el dedo o el teclado: flechas para moverte, Intro para elegir pieza y destino.',
    promote: 'Coronar en:',
    pieces_promo: { q: 'Dama', r: 'Torre', b: 'Alfil', n: 'Caballo' },
    task: 'Tarea',
    source: 'Fuente',
    saved_fail: (m) => `No se guardó: ${m}`,
    find: 'Encuentra la casilla',
    name: 'Di el nombre de la casilla',
    from_white: 'Desde las blancas',
    from_black: 'Desde las negras',
    timer: 'Con reloj (30 s)',
    start: 'Empezar',
    find_task: (sq) => `Toca la casilla ${sq}`,
    name_task: 'Escribe el nombre de la casilla marcada',
    right: 'Correcto',
    wrong_sq: (sq, want) => `Esa es ${sq}; buscabas ${want}`,
    wrong_name: (a, want) => `«${a}» no: es ${want}`,
    score: (s, n) => `Aciertos: ${s} de ${n}`,
    time_left: (s) => `Quedan ${s} s`,
    time_up: 'Se acabó el tiempo',
    history: 'Tus resultados',
    history_none: 'Todavía no hay resultados.',
    history_row: (d, mode, side, s, n, timed) => `${d} · ${mode} · ${side} · ${s}/${n}${timed ? ' · con reloj' : ''}`,
    rounds: 10,
    not_found: 'No existe esa etapa.',
  },
  en: {
    title: 'Learn to play',
    intro: 'The rules of chess step by step, in the words of the founding texts. Each stage cites the article it teaches; the moves are judged by the rules library.',
    stage: (n) => `Stage ${n}`,
    exercises: (n) => `${n} exercises`,
    exercise: (i, n) => `Exercise ${i} of ${n}`,
    stars: (s, m) => `${s} of ${m} stars`,
    total: (s, m) => `Your progress: ${s} of ${m} stars`,
    guest_note: 'As a guest your progress is kept in this browser; it joins your account when you log in.',
    joined: (n) => `The progress of ${n} exercises in this browser joined your account.`,
    join_refused: (msg) => `This browser's progress could not be joined: ${msg}`,
    kid: 'Kid mode (big pieces, no timer)',
    coords: 'Coordinates',
    coords_intro: 'Find the square or say its name. Files a to h, ranks 1 to 8.',
    back: 'All stages',
    next_ex: 'Next exercise',
    next_stage: 'Next stage',
    again: 'Again',
    solved: (s) => `Well done! ${'★'.repeat(s)}${'☆'.repeat(3 - s)} (${s} of 3 stars)`,
    progress_ok: 'Good. Go on.',
    already: 'This exercise is already solved.',
    wrong: 'Not right',
    stage_done: (s, m) => `Stage finished: ${s} of ${m} stars.`,
    write_label: 'Write the move in Spanish notation',
    write_send: 'Check',
    touch_help: 'Touch the square on the board (or move with the arrows and press Enter).',
    move_help: 'Move with the mouse, a finger or the keyboard: arrows to move, Enter to pick a piece and its square.',
    promote: 'Promote to:',
    pieces_promo: { q: 'Queen', r: 'Rook', b: 'Bishop', n: 'Knight' },
    task: 'Task',
    source: 'Source',
    saved_fail: (m) => `Not kept: ${m}`,
    find: 'Find the square',
    name: 'Name the square',
    from_white: "From White's side",
    from_black: "From Black's side",
    timer: 'With a timer (30 s)',
    start: 'Start',
    find_task: (sq) => `Touch the square ${sq}`,
    name_task: 'Write the name of the marked square',
    right: 'Right',
    wrong_sq: (sq, want) => `That is ${sq}; you were looking for ${want}`,
    wrong_name: (a, want) => `'${a}' is wrong: it is ${want}`,
    score: (s, n) => `Right: ${s} of ${n}`,
    time_left: (s) => `${s} s left`,
    time_up: 'Time is up',
    history: 'Your results',
    history_none: 'No results yet.',
    history_row: (d, mode, side, s, n, timed) => `${d} · ${mode} · ${side} · ${s}/${n}${timed ? ' · timed' : ''}`,
    rounds: 10,
    not_found: 'There is no such stage.',
  },
};

const GUEST_KEY = 'aprender:invitado';
const GUEST_STARS = 'aprender:estrellas';
const KID_KEY = 'aprender:ninos';
const COORD_KEY = 'aprender:coordenadas';
const FILES = 'abcdefgh';

const ls = {
  get(k, d) { try { const v = localStorage.getItem(k); return v === null ? d : JSON.parse(v); } catch { return d; } },
  set(k, v) { try { localStorage.setItem(k, JSON.stringify(v)); } catch { /* private mode */ } },
  del(k) { try { localStorage.removeItem(k); } catch { /* private mode */ } },
};

// Timings the benchmark reads: each try's moment sent and verdict shown.
const timing = { sent: [], shown: [] };
window.escaqueAprender = timing;

let C; // the app's helpers: h, api, t, LANG, say, showError, Chessground
let A; // this page's texts

function style() {
  if (document.getElementById('ap-style')) return;
  document.head.append(C.h('style', { id: 'ap-style' }, [
    '.ap-stages { list-style: none; padding: 0; display: grid; grid-template-columns: repeat(auto-fill, minmax(15rem, 1fr)); gap: .6rem; }',
    '.ap-stages a { display: block; padding: .6rem .8rem; border: 1px solid #8886; border-radius: 8px; text-decoration: none; color: inherit; }',
    '.ap-stages a:focus-visible, .ap-stages a:hover { outline: 3px solid var(--accent); }',
    '.ap-stars { color: #c98a00; font-size: 1.1rem; letter-spacing: 1px; }',
    '.ap-num { opacity: .7; font-size: .9rem; } .ap-title { font-weight: bold; display: block; }',
    '.ap-reason { font-size: 1.1rem; padding: .5rem .7rem; border-radius: 6px; background: #c0392b22; border-left: 4px solid #c0392b; }',
    '.ap-reason:empty, .ap-good:empty { display: none; }',
    '.ap-good { font-size: 1.1rem; padding: .5rem .7rem; border-radius: 6px; background: #1a8f3a22; border-left: 4px solid #1a8f3a; }',
    '.ap-task { font-size: 1.2rem; font-weight: bold; }',
    '.ap-options { display: flex; flex-direction: column; gap: .4rem; align-items: stretch; }',
    '.ap-options button, .ap-promo button { text-align: left; font-size: 1.05rem; padding: .5rem .7rem; }',
    '.ap-quote { font-style: italic; opacity: .85; border-left: 3px solid #8886; padding-left: .6rem; }',
    '.ap-kid .board-wrap { width: min(calc(100vh - 6rem), 96vw, 1400px); }',
    '.ap-kid .ap-task { font-size: 1.6rem; } .ap-kid .ap-reason, .ap-kid .ap-good { font-size: 1.4rem; }',
    '.ap-kid .ap-options button { font-size: 1.4rem; padding: .8rem 1rem; }',
    '.ap-board-none { display: none; }',
    '.ap-history { padding-left: 1.2rem; }',
    '.board cg-board square.ap-target { box-shadow: inset 0 0 0 5px #c98a00; }',
  ].join('\n')));
}

const starText = (s, m) => `${'★'.repeat(Math.min(s, m))}${'☆'.repeat(Math.max(0, m - s))}`;
const isKid = (me) => ls.get(KID_KEY, null) === null ? !!(me && me.managed) : ls.get(KID_KEY, false);

function kidToggle(me) {
  const box = C.h('input', { type: 'checkbox', id: 'ap-kid', checked: isKid(me),
    onchange: (e) => { ls.set(KID_KEY, e.target.checked); document.body.classList.toggle('ap-kid', e.target.checked); } });
  document.body.classList.toggle('ap-kid', isKid(me));
  return C.h('label', { class: 'srlabel' }, box, ' ', A.kid);
}

// ---------------------------------------------------------------- progress

/** The stars of every exercise: {stage: [stars…]} from the server (an
 * account) or from this browser (a guest). */
async function stars(me, course) {
  const out = {};
  if (me && me.account) {
    try {
      const p = await C.api('GET', '/api/aprender/progreso');
      for (const s of p.stages) out[s.stage] = s.stars;
      return out;
    } catch { /* shown as none */ }
  }
  const mine = ls.get(GUEST_STARS, {});
  for (const s of course.stages) {
    out[s.id] = Array.from({ length: s.exercises }, (_, i) => mine[`${s.id}/${i}`] || 0);
  }
  return out;
}

/** A guest's tries and stars kept here; an account's sent to the server. */
async function keep(me, stage, n, tries, got) {
  if (me && me.account) {
    try { await C.api('POST', '/api/aprender/progreso', { stage, exercise: n, tries }); } catch (e) { C.showError(A.saved_fail(e.message)); }
    return;
  }
  const key = `${stage}/${n}`;
  const best = ls.get(GUEST_STARS, {});
  if ((best[key] || 0) < got) {
    best[key] = got;
    ls.set(GUEST_STARS, best);
    const all = ls.get(GUEST_KEY, {});
    all[key] = tries;
    ls.set(GUEST_KEY, all);
  }
}

/** At an account's first course page after login: this browser's guest
 * progress joined to it (the server replays every exercise), then dropped. */
export async function joinGuest(me, api) {
  const all = ls.get(GUEST_KEY, null);
  if (!me || !me.account || !all || !Object.keys(all).length) return null;
  const items = Object.entries(all).map(([k, tries]) => {
    const i = k.lastIndexOf('/');
    return { stage: k.slice(0, i), exercise: Number(k.slice(i + 1)), tries };
  });
  try {
    await api('POST', '/api/aprender/unir', { items });
    ls.del(GUEST_KEY); ls.del(GUEST_STARS);
    return { ok: true, n: items.length };
  } catch (e) {
    // A refused join is not sent again and again: dropped, and said.
    if (e.status && e.status < 500) { ls.del(GUEST_KEY); ls.del(GUEST_STARS); }
    return { ok: false, msg: e.message };
  }
}

// ---------------------------------------------------------------- pages

export async function route(path, el, me, helpers) {
  C = helpers;
  A = TEXTS[C.LANG] || TEXTS.es;
  style();
  document.title = `${A.title} · escaque`;
  const joined = await joinGuest(me, C.api);
  if (joined) el.append(C.h('p', { id: 'ap-joined', class: joined.ok ? 'ap-good' : 'ap-reason' }, joined.ok ? A.joined(joined.n) : A.join_refused(joined.msg)));
  if (path === '/aprender') return list(el, me);
  if (path === '/aprender/coordenadas') return coordinates(el, me);
  const m = path.match(/^\/aprender\/([a-z0-9-]+)$/);
  if (m) return stagePage(el, me, m[1]);
  el.append(C.h('p', { class: 'error' }, A.not_found));
}

async function list(el, me) {
  const { h } = C;
  const course = await C.api('GET', '/api/aprender');
  const got = await stars(me, course);
  let total = 0;
  const items = course.stages.map((s) => {
    const st = got[s.id] || [];
    const sum = st.reduce((a, b) => a + b, 0);
    total += sum;
    const max = 3 * s.exercises;
    return h('li', { 'data-stage': s.id },
      h('a', { href: `/aprender/${s.id}`, 'aria-label': `${A.stage(s.number)}: ${s.title[C.LANG]}. ${A.stars(sum, max)}` },
        h('span', { class: 'ap-num' }, A.stage(s.number)),
        h('span', { class: 'ap-title' }, s.title[C.LANG]),
        h('span', { class: 'ap-stars', 'data-stars': String(sum) }, `${sum}/${max} ★`),
        h('span', { class: 'ap-num' }, ` · ${A.exercises(s.exercises)}`)));
  });
  el.append(h('h1', {}, A.title),
    h('p', {}, A.intro),
    h('p', { id: 'ap-total', 'data-stars': String(total) }, A.total(total, 3 * course.exercises)),
    // (an account has no guest note: nothing, not the text "null")
    ...(me && me.account ? [] : [h('p', { class: 'help' }, A.guest_note)]),
    h('p', {}, kidToggle(me), ' · ', h('a', { href: '/aprender/coordenadas', id: 'ap-coords-link' }, A.coords)),
    h('ol', { class: 'ap-stages', id: 'ap-stages' }, items));
}

async function stagePage(el, me, id) {
  const { h } = C;
  let S;
  try { S = await C.api('GET', `/api/aprender/etapas/${encodeURIComponent(id)}`); } catch { el.append(h('p', { class: 'error' }, A.not_found)); return; }
  const L = C.LANG;
  const done = new Array(S.exercises.length).fill(0);
  let idx = 0;
  const start = Number(new URLSearchParams(location.search).get('ejercicio'));
  if (Number.isInteger(start) && start > 0 && start <= S.exercises.length) idx = start - 1;

  const boardEl = h('div', { id: 'board', class: 'board' });
  const boardWrap = h('div', { class: 'board-wrap' }, boardEl);
  const counter = h('p', { id: 'ap-counter', class: 'ap-num' });
  const task = h('p', { id: 'ap-task', class: 'ap-task' });
  const help = h('p', { class: 'help', id: 'ap-help' });
  const reason = h('p', { id: 'ap-reason', class: 'ap-reason', role: 'status' });
  const good = h('p', { id: 'ap-good', class: 'ap-good', role: 'status' });
  const answer = h('div', { id: 'ap-answer' });
  const next = h('div', { id: 'ap-next', class: 'controls' });
  // The board first, beside it the task and the answer; the seed's words
  // under them, so that the board is whole on the screen.
  el.append(h('p', {}, h('a', { href: '/aprender', id: 'ap-back' }, A.back), ' · ', kidToggle(me)),
    h('h1', { id: 'ap-stage-title' }, `${A.stage(S.number)}: ${S.title[L]}`),
    h('div', { class: 'game' },
      h('div', { class: 'board-col' }, boardWrap),
      h('div', { class: 'side' }, counter, task, help, reason, good, answer, next,
        h('p', {}, S.intro[L]),
        S.quote ? h('blockquote', { class: 'ap-quote' }, S.quote) : null,
        h('p', { class: 'ap-num', id: 'ap-source' }, `${A.source}: ${S.source[L]}`))));

  let ex; let tries = []; let fen = null; let solved = false; let pending = null;
  const cg = C.Chessground(boardEl, {
    coordinates: true,
    animation: { duration: 150 },
    draggable: { showGhost: true },
    movable: { free: true, showDests: false, rookCastle: false, events: { after: (o, d) => onMove(o, d) } },
    premovable: { enabled: false },
    drawable: { enabled: false },
    events: { select: (sq) => onSelect(sq) },
  });
  window.escaqueAprenderBoard = cg;
  // The board's keyboard (boardkeys.js) with every square a destination of
  // the pupil's pieces: any move may be tried, and a wrong one gets its reason.
  const kt = Object.assign({}, C.t, {
    kb_picked: (p, sq) => (L === 'en' ? `Picked: ${p} on ${sq}. Choose the square to go to` : `Elegido: ${p} en ${sq}. Elige la casilla de destino`),
  });
  boardKeys(cg, boardEl, { t: kt, say: C.say, mine: () => (ex && ex.fen && !ex.question && !ex.touch ? ex.side : null), myTurn: () => true });
  // A touched square by keyboard: Enter on the cursor's square.
  boardWrap.addEventListener('keydown', (e) => {
    if (!ex || !ex.touch || solved || (e.key !== 'Enter' && e.key !== ' ')) return;
    const sq = boardEl.dataset.cursor;
    if (!sq) return;
    e.preventDefault(); e.stopPropagation();
    send({ square: sq });
  }, { capture: true });

  function allDests() {
    const d = new Map();
    for (const [sq, p] of cg.state.pieces) {
      if (p.color === ex.side) d.set(sq, Array.from({ length: 64 }, (_, i) => FILES[i % 8] + (1 + Math.floor(i / 8))).filter((x) => x !== sq));
    }
    return d;
  }

  function drawStars(left) {
    cg.setAutoShapes((left || []).map((sq) => ({ orig: sq, brush: 'yellow' })));
  }

  function setBoard(f, left, check) {
    fen = f;
    const playable = !solved && !ex.question && !ex.touch && !ex.write && !!f;
    cg.set({
      fen: f || '8/8/8/8/8/8/8/8 w - - 0 1',
      orientation: ex.side,
      turnColor: ex.side,
      check: check ? ex.side : false,
      lastMove: undefined,
      movable: { color: playable ? ex.side : undefined, dests: playable ? allDests() : new Map() },
      selectable: { enabled: true },
    });
    if (playable) cg.set({ movable: { dests: allDests() } });
    drawStars(left);
  }

  function show() {
    ex = S.exercises[idx];
    tries = []; solved = false; pending = null;
    counter.textContent = A.exercise(idx + 1, S.exercises.length);
    task.textContent = ex.task[L];
    reason.textContent = ''; good.textContent = '';
    next.replaceChildren();
    answer.replaceChildren();
    // A square to touch is on the board even without a position (an empty one).
    boardWrap.classList.toggle('ap-board-none', !ex.fen && !ex.touch);
    help.textContent = ex.touch ? A.touch_help : (ex.fen && !ex.question && !ex.write ? A.move_help : '');
    if (ex.question) {
      answer.append(h('div', { class: 'ap-options', role: 'group', 'aria-label': ex.task[L] },
        ex.options.map((o, i) => h('button', { type: 'button', 'data-option': String(i), onclick: () => send({ choice: i }) }, o[L]))));
    } else if (ex.write) {
      const input = h('input', { id: 'ap-write', type: 'text', autocomplete: 'off', 'aria-label': A.write_label });
      answer.append(h('form', { onsubmit: (e) => { e.preventDefault(); if (input.value.trim()) send({ text: input.value.trim() }); } },
        h('label', {}, A.write_label, ' ', input), ' ', h('button', { type: 'submit', id: 'ap-write-send' }, A.write_send)));
    }
    setBoard(ex.fen, ex.stars, false);
    document.body.dataset.exercise = String(idx);
    C.say(`${A.exercise(idx + 1, S.exercises.length)}. ${ex.task[L]}`);
  }

  function onSelect(sq) {
    if (ex && ex.touch && !solved) send({ square: sq });
  }

  function onMove(orig, dest) {
    const p = cg.state.pieces.get(dest);
    if (p && p.role === 'pawn' && (dest[1] === '8' || dest[1] === '1')) {
      // The chooser: Spanish letters on the buttons, English in the try.
      answer.replaceChildren(h('div', { class: 'ap-promo', role: 'group', 'aria-label': A.promote }, A.promote, ' ',
        ['q', 'r', 'b', 'n'].map((r) => h('button', { type: 'button', 'data-promo': r, onclick: () => { answer.replaceChildren(); send({ move: orig + dest + r }); } }, A.pieces_promo[r]))));
      answer.querySelector('button').focus();
      return;
    }
    send({ move: orig + dest });
  }

  async function send(tr) {
    if (solved || pending) return;
    const before = fen;
    const all = [...tries, tr];
    const t0 = performance.now();
    pending = tr;
    let v;
    try { v = await C.api('POST', '/api/aprender/jugar', { stage: S.id, exercise: ex.n, tries: all }); } catch (e) {
      pending = null; C.showError(e); setBoard(fen, ex.stars, false); return;
    }
    pending = null;
    tries = all;
    if (v.verdict === 'refused') {
      reason.textContent = `${A.wrong}: ${v.reason[L]}`;
      good.textContent = '';
      setBoard(before, v.stars_left, v.check);
      C.say(reason.textContent);
    } else {
      reason.textContent = '';
      const words = v.uci && before ? moveWords(C.t, before, v.uci, v.san ? v.san.en : '') : '';
      const sanShown = v.san ? v.san[L] : '';
      if (v.verdict === 'solved') {
        solved = true;
        done[idx] = Math.max(done[idx], v.stars);
        good.textContent = `${sanShown ? `${sanShown}. ` : ''}${A.solved(v.stars)}${v.note ? ` ${v.note[L]}` : ''}`;
        good.dataset.stars = String(v.stars);
        setBoard(v.fen, v.stars_left, v.check);
        if (v.uci) cg.set({ lastMove: [v.uci.slice(0, 2), v.uci.slice(2, 4)] });
        await keep(me, S.id, ex.n, tries, v.stars);
        next.replaceChildren(...nextButtons());
        C.say(`${words ? `${words}. ` : ''}${good.textContent}`);
      } else if (v.verdict === 'progress') {
        good.textContent = `${sanShown}. ${A.progress_ok}`;
        setBoard(v.fen, v.stars_left, v.check);
        if (v.uci) cg.set({ lastMove: [v.uci.slice(0, 2), v.uci.slice(2, 4)] });
        C.say(`${words}. ${A.progress_ok}`);
      } else {
        good.textContent = A.already;
      }
    }
    timing.sent.push(t0);
    // The verdict is on the page: measured after the browser drew it.
    requestAnimationFrame(() => timing.shown.push(performance.now()));
    document.body.dataset.tries = String(tries.length);
  }

  function nextButtons() {
    const out = [h('button', { type: 'button', id: 'ap-again', onclick: () => show() }, A.again)];
    if (idx + 1 < S.exercises.length) {
      out.push(h('button', { type: 'button', id: 'ap-next-ex', onclick: () => { idx += 1; show(); focusStart(); } }, A.next_ex));
    } else {
      const sum = done.reduce((a, b) => a + b, 0);
      out.push(h('p', { id: 'ap-stage-done', 'data-stars': String(sum) }, A.stage_done(sum, 3 * S.exercises.length)));
      if (S.next) out.push(h('a', { class: 'button', id: 'ap-next-stage', href: `/aprender/${S.next}` }, A.next_stage));
      out.push(h('a', { class: 'button', href: '/aprender' }, A.back));
    }
    setTimeout(() => { const b = document.getElementById('ap-next-ex') || document.getElementById('ap-next-stage'); if (b) b.focus(); }, 0);
    return out;
  }

  function focusStart() {
    const first = answer.querySelector('button, input');
    if (first) first.focus(); else if (ex.fen || ex.touch) boardEl.focus();
  }

  show();
}

// ---------------------------------------------------------------- coordinates

function coordinates(el, me) {
  const { h } = C;
  const L = C.LANG;
  const boardEl = h('div', { id: 'board', class: 'board' });
  const mode = h('select', { id: 'co-mode' }, h('option', { value: 'find' }, A.find), h('option', { value: 'name' }, A.name));
  const side = h('select', { id: 'co-side' }, h('option', { value: 'white' }, A.from_white), h('option', { value: 'black' }, A.from_black));
  const timed = h('input', { type: 'checkbox', id: 'co-timer' });
  const timerLabel = h('label', { class: 'srlabel', id: 'co-timer-label' }, timed, ' ', A.timer);
  const task = h('p', { id: 'co-task', class: 'ap-task' });
  const verdict = h('p', { id: 'co-verdict', role: 'status' });
  const score = h('p', { id: 'co-score' });
  const clock = h('p', { id: 'co-clock' });
  const nameIn = h('input', { id: 'co-name', type: 'text', autocomplete: 'off', size: 4, 'aria-label': A.name_task });
  const nameForm = h('form', { hidden: true, onsubmit: (e) => { e.preventDefault(); answer(nameIn.value.trim().toLowerCase()); nameIn.value = ''; } },
    nameIn, ' ', h('button', { type: 'submit' }, A.write_send));
  const hist = h('ol', { id: 'co-history', class: 'ap-history' });
  el.append(h('p', {}, h('a', { href: '/aprender' }, A.back), ' · ', kidToggle(me)),
    h('h1', {}, A.coords), h('p', {}, A.coords_intro),
    h('div', { class: 'game' },
      h('div', { class: 'board-col' }, h('div', { class: 'board-wrap' }, boardEl)),
      h('div', { class: 'side' },
        h('p', { class: 'controls' }, mode, ' ', side, ' ', timerLabel, ' ', h('button', { type: 'button', id: 'co-start', onclick: () => begin() }, A.start)),
        task, nameForm, verdict, score, clock, h('h2', {}, A.history), hist)));
  const cg = C.Chessground(boardEl, { coordinates: false, viewOnly: false, movable: { color: undefined }, drawable: { enabled: false }, fen: '8/8/8/8/8/8/8/8 w - - 0 1', events: { select: (sq) => { if (run && run.mode === 'find') answer(sq); } } });
  window.escaqueAprenderBoard = cg;
  const boardT = Object.assign({}, C.t);
  boardKeys(cg, boardEl, { t: boardT, say: C.say, mine: () => null, myTurn: () => false });
  boardEl.addEventListener('keydown', (e) => {
    if (!run || run.mode !== 'find' || (e.key !== 'Enter' && e.key !== ' ')) return;
    if (boardEl.dataset.cursor) { e.preventDefault(); e.stopImmediatePropagation(); answer(boardEl.dataset.cursor); }
  }, { capture: true });
  let run = null; let tick = null;
  const randomSquare = () => FILES[Math.floor(Math.random() * 8)] + (1 + Math.floor(Math.random() * 8));
  const kid = () => document.body.classList.contains('ap-kid');

  function drawHistory() {
    const rows = ls.get(COORD_KEY, []);
    hist.replaceChildren(...(rows.length ? rows.slice(-10).reverse().map((r) => h('li', {},
      A.history_row(new Date(r.at).toLocaleDateString(L), r.mode === 'find' ? A.find : A.name, r.side === 'white' ? A.from_white : A.from_black, r.score, r.rounds, r.timed)))
      : [h('li', {}, A.history_none)]));
  }

  function begin() {
    clearInterval(tick);
    const t = timed.checked && !kid();
    run = { mode: mode.value, side: side.value, n: 0, score: 0, timed: t, left: 30 };
    cg.set({ orientation: run.side });
    nameForm.hidden = run.mode !== 'name';
    if (t) {
      clock.textContent = A.time_left(run.left);
      tick = setInterval(() => { run.left -= 1; clock.textContent = A.time_left(run.left); if (run.left <= 0) finish(A.time_up); }, 1000);
    } else clock.textContent = '';
    ask();
  }

  function ask() {
    run.target = randomSquare();
    score.textContent = A.score(run.score, run.n);
    if (run.mode === 'find') {
      cg.set({ highlight: { custom: new Map() } });
      task.textContent = A.find_task(run.target);
      C.say(task.textContent);
      boardEl.focus();
    } else {
      cg.set({ highlight: { custom: new Map([[run.target, 'ap-target']]) } });
      task.textContent = A.name_task;
      C.say(task.textContent);
      nameIn.focus();
    }
  }

  function answer(a) {
    if (!run) return;
    run.n += 1;
    const right = a === run.target;
    if (right) run.score += 1;
    verdict.textContent = right ? A.right : (run.mode === 'find' ? A.wrong_sq(a, run.target) : A.wrong_name(a, run.target));
    verdict.className = right ? 'ap-good' : 'ap-reason';
    C.say(verdict.textContent);
    if (run.n >= A.rounds) finish(''); else ask();
  }

  function finish(why) {
    clearInterval(tick);
    const r = run; run = null;
    score.textContent = A.score(r.score, r.n);
    task.textContent = why;
    const rows = ls.get(COORD_KEY, []);
    rows.push({ at: Date.now(), mode: r.mode, side: r.side, score: r.score, rounds: r.n, timed: r.timed });
    ls.set(COORD_KEY, rows.slice(-100));
    drawHistory();
    C.say(`${why ? `${why}. ` : ''}${score.textContent}`);
  }

  const kidSync = () => { timerLabel.hidden = kid(); };
  document.getElementById('ap-kid').addEventListener('change', kidSync);
  kidSync();
  drawHistory();
}
