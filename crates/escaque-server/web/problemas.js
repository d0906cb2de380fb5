// The puzzle trainer (issue 56): /problemas. The next puzzle at the
// player's level (or a streak, or the player's own queue), by difficulty and
// theme; the board (chessground) where the player answers; a hint (the
// piece to move) and "ver la solución"; the rating, or stars in kid mode;
// the queue, the last attempts and the success per theme.
//
// Everything about chess comes from the server (docs/protocol.md,
// "Problemas"): the position, the legal moves, the verdict on each move and
// the opponent's reply. Every name is put in with textContent (`h`).
import { boardKeys } from './boardkeys.js';

let C; // the shared helpers from app.js
const P = () => C.t.pz;

export async function route(path, main, me, helpers) {
  C = helpers;
  await page(main);
}

function say(text) {
  const el = document.getElementById('sr-live');
  if (!el) return;
  el.textContent = '';
  setTimeout(() => { el.textContent = text; }, 30);
}

const squares = (uci) => [uci.slice(0, 2), uci.slice(2, 4)];

function destsMap(legal) {
  const m = new Map();
  for (const [from, tos] of Object.entries(legal || {})) m.set(from, tos);
  return m;
}

function boardUci(cg, orig, dest) {
  const p = cg.state.pieces.get(dest);
  const last = dest[1] === '8' || dest[1] === '1';
  return p && p.role === 'pawn' && last ? `${orig}${dest}q` : `${orig}${dest}`;
}

const turnOf = (fen) => ((fen || '').split(' ')[1] === 'b' ? 'black' : 'white');
const themeName = (th) => (C.LANG === 'es' ? th.es : th.en);
const stars = (n) => '★'.repeat(n) + '☆'.repeat(3 - n);

async function page(main) {
  const h = C.h;
  const ratingEl = h('p', { id: 'pz-rating', class: 'pz-rating' });
  const streakEl = h('p', { id: 'pz-streak', class: 'pz-streak' });
  const statusEl = h('p', { id: 'pz-status', class: 'pz-status', role: 'status' });
  const modeSel = h('select', { id: 'pz-mode' },
    h('option', { value: 'rating' }, P().mode_rating),
    h('option', { value: 'streak' }, P().mode_streak),
    h('option', { value: 'queue' }, P().mode_queue));
  const diffSel = h('select', { id: 'pz-difficulty' },
    ...['easiest', 'easier', 'normal', 'harder', 'hardest'].map((d) =>
      h('option', { value: d, selected: d === 'normal' }, P().difficulty[d])));
  // The themes come from the server (GET /api/puzzles/themes): those its
  // puzzles have, with how many; "any" until they arrive.
  const themeSel = h('select', { id: 'pz-theme' }, h('option', { value: '' }, P().any_theme));
  C.api('GET', '/api/puzzles/themes').then((r) => {
    themeSel.append(...r.themes.map((t) =>
      h('option', { value: t.theme.key }, `${themeName(t.theme)} (${t.puzzles})`)));
  }).catch(() => {});
  const boardEl = h('div', { id: 'pz-board', class: 'board' });
  const hintBtn = h('button', { id: 'pz-hint', type: 'button' }, P().hint);
  const solBtn = h('button', { id: 'pz-solution', type: 'button' }, P().solution);
  const nextBtn = h('button', { id: 'pz-next', type: 'button' }, P().next);
  const queueEl = h('ul', { id: 'pz-queue', class: 'pz-queue' });
  const historyEl = h('ul', { id: 'pz-history', class: 'pz-history' });
  const themesEl = h('table', { id: 'pz-themes', class: 'pz-themes' });
  const infoEl = h('p', { id: 'pz-info', class: 'pz-info' });
  main.replaceChildren(
    h('h1', {}, P().title),
    h('div', { class: 'pz-layout' },
      h('div', { class: 'board-wrap' }, boardEl),
      h('section', { class: 'pz-side', 'aria-label': P().title },
        ratingEl, streakEl,
        h('div', { class: 'pz-choose' },
          h('label', {}, P().mode, ' ', modeSel),
          h('label', {}, P().difficulty_label, ' ', diffSel),
          h('label', {}, P().theme, ' ', themeSel)),
        statusEl, infoEl,
        h('div', { class: 'pz-buttons' }, hintBtn, solBtn, nextBtn),
        h('h2', {}, P().queue), queueEl,
        h('h2', {}, P().history), historyEl,
        h('h2', {}, P().themes), themesEl)));

  let served = null;
  let moves = [];
  let done = false;
  const started = { at: Date.now() };

  const cg = C.Chessground(boardEl, {
    coordinates: true,
    viewOnly: false,
    autoCastle: true,
    animation: { enabled: true, duration: 200 },
    highlight: { lastMove: true, check: true },
    movable: { free: false, color: undefined, showDests: true, dests: new Map(), events: { after: (o, d) => played(o, d) } },
    premovable: { enabled: false },
    draggable: { enabled: true, showGhost: true },
    drawable: { enabled: true, visible: true },
  });
  window.escaquePuzzle = cg;
  boardKeys(cg, boardEl, { t: C.t, say, mine: () => cg.state.movable.color || null, myTurn: () => true });

  function status(text) { statusEl.textContent = text; say(text); }

  async function profile() {
    let p;
    try { p = await C.api('GET', '/api/puzzles/me'); } catch (e) { C.showError(e); return; }
    ratingEl.textContent = p.kid ? P().kid_mode
      : (p.rating ? P().rating(p.rating.rating, p.rating.provisional) : P().no_rating);
    streakEl.textContent = P().streak(p.streak, p.best_streak);
    queueEl.replaceChildren(...(p.queue.length ? p.queue.map((q) => h('li', { 'data-puzzle': q.puzzle },
      q.due_now ? P().due_now : P().due_on(new Date(q.due_ms).toLocaleDateString(C.LANG)),
      ' · ', h('a', { href: `/problemas?puzzle=${encodeURIComponent(q.puzzle)}` }, q.puzzle),
      q.game ? h('span', {}, ' · ', h('a', { href: q.game.url, class: 'pz-game' }, P().from_game(q.game.ply))) : null))
      : [h('li', {}, P().queue_empty)]));
    historyEl.replaceChildren(...p.history.slice(0, 10).map((a) => h('li', { 'data-solved': a.solved ? '1' : '0' },
      a.solved ? '✓ ' : '✗ ', a.puzzle,
      a.rating_diff !== null && a.rating_diff !== undefined ? ` (${a.rating_diff >= 0 ? '+' : ''}${a.rating_diff})` : '')));
    themesEl.replaceChildren(
      h('tr', {}, h('th', {}, P().theme), h('th', {}, P().tried), h('th', {}, P().solved_col)),
      ...p.themes.slice(0, 12).map((s) => h('tr', {},
        h('td', {}, themeName(s.theme)), h('td', {}, String(s.tried)), h('td', {}, `${Math.round((100 * s.solved) / s.tried)} %`))));
  }

  function lock() { cg.set({ movable: { color: undefined, dests: new Map() } }); }

  async function next(puzzle) {
    C.showError(null);
    infoEl.textContent = '';
    const q = new URLSearchParams();
    if (puzzle) q.set('puzzle', puzzle);
    else {
      q.set('mode', modeSel.value);
      if (modeSel.value === 'rating') q.set('difficulty', diffSel.value);
      if (themeSel.value && modeSel.value !== 'queue') q.set('theme', themeSel.value);
    }
    try { served = await C.api('GET', `/api/puzzles/next?${q}`); } catch (e) {
      served = null; lock(); status(e.message); return;
    }
    moves = [];
    done = false;
    started.at = Date.now();
    const p = served.puzzle;
    const [f, t] = squares(p.first_move);
    cg.set({ fen: p.fen, orientation: p.solver, lastMove: undefined, turnColor: turnOf(p.fen), movable: { color: undefined, dests: new Map() } });
    boardEl.dataset.puzzle = p.id;
    boardEl.dataset.attempt = served.attempt;
    status(P().watch);
    // The opponent's move, then the solver's turn.
    setTimeout(() => {
      cg.move(f, t);
      cg.set({ turnColor: p.solver, movable: { color: p.solver, dests: destsMap(p.legal) } });
      status(P().your_move(p.solver === 'white' ? C.t.white : C.t.black));
      boardEl.dataset.ready = '1';
    }, 400);
    delete boardEl.dataset.ready;
    infoEl.textContent = [
      !served.kid && p.rating ? P().puzzle_rating(p.rating) : '',
      p.game ? P().from_game(p.game.ply) : '',
    ].filter(Boolean).join(' · ');
  }

  function finished(r) {
    done = true;
    lock();
    let text = r.state === 'solved' ? P().solved : P().failed;
    if (r.stars !== null && r.stars !== undefined) text += ` ${stars(r.stars)}`;
    if (r.rating) text += ` ${P().rating_change(Math.trunc(r.rating.after), r.rating.diff)}`;
    if (r.streak !== null && r.streak !== undefined) text += ` ${P().streak_now(r.streak)}`;
    if (r.queued_until) text += ` ${P().queued}`;
    status(text);
    if (r.themes && r.themes.length) infoEl.textContent = `${P().themes}: ${r.themes.map(themeName).join(', ')}`;
    boardEl.dataset.state = r.state;
    profile();
  }

  async function played(orig, dest) {
    if (!served || done) return;
    const uci = boardUci(cg, orig, dest);
    moves = moves.concat([uci]);
    lock();
    let r;
    try {
      r = await C.api('POST', `/api/puzzles/attempts/${served.attempt}/answer`,
        { moves, time_ms: Math.max(0, Date.now() - started.at) });
    } catch (e) { status(e.message); return; }
    if (r.state === 'continue') {
      const [f, t] = squares(r.reply);
      setTimeout(() => {
        cg.move(f, t);
        cg.set({ turnColor: served.puzzle.solver, movable: { color: served.puzzle.solver, dests: destsMap(r.legal) } });
        status(P().right_go_on);
      }, 300);
    } else finished(r);
  }

  hintBtn.addEventListener('click', async () => {
    if (!served || done) return;
    try {
      const r = await C.api('POST', `/api/puzzles/attempts/${served.attempt}/hint`, { moves, time_ms: 0 });
      cg.set({ drawable: { autoShapes: [{ orig: r.square, brush: 'green' }] } });
      status(P().hint_text(C.LANG === 'es' ? r.piece_es : r.piece_en, r.square));
    } catch (e) { C.showError(e); }
  });
  solBtn.addEventListener('click', async () => {
    if (!served || done) return;
    let r;
    try { r = await C.api('POST', `/api/puzzles/attempts/${served.attempt}/solution`, {}); } catch (e) { C.showError(e); return; }
    // The line played out on the board.
    const line = r.solution.slice(moves.length * 2);
    line.forEach((uci, i) => setTimeout(() => { const [f, t] = squares(uci); cg.move(f, t); }, 350 * (i + 1)));
    finished(r);
    infoEl.textContent = `${P().solution_was}: ${r.solution.join(' ')}`;
  });
  nextBtn.addEventListener('click', () => next());
  modeSel.addEventListener('change', () => next());

  await profile();
  const wanted = new URLSearchParams(location.search).get('puzzle');
  await next(wanted || undefined);
}
