// The analysis pages (issue 27): /analisis (paste or upload a PGN, the
// analysis board from a FEN) and /analisis/{id} (an analysed game: the
// evaluation graph, the marks in the move list with the better move and the
// engine's line, each side's accuracy, the annotated PGN, "Aprende de tus
// errores" and the analysis board). Loaded only there.
//
// Everything about chess comes from the server: the analysis, the legal
// destinations, the SAN of the engine's lines and the verdict on a tried
// move (docs/protocol.md, "Analysis"). This script shows them and sends what
// the person does. Every name is put in with textContent (the `h` helper).
import { boardKeys } from './boardkeys.js';

let C; // the shared helpers from app.js
const A = () => C.t.an;

const START_FEN = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
const SYMBOL = { inaccuracy: '?!', mistake: '?', blunder: '??' };
// The engine's lines drawn on the board: the best one strongest.
const BRUSHES = ['green', 'paleBlue', 'paleGrey', 'paleGrey', 'paleGrey'];
const POLL_MS = 500;

export async function route(path, main, me, helpers) {
  C = helpers;
  const m = path.match(/^\/analisis\/([A-Za-z0-9_-]+)$/);
  if (m) await analysisPage(main, m[1], me);
  else await homePage(main);
}

// ------------------------------------------------------------------ helpers

function say(text) {
  const el = document.getElementById('sr-live');
  if (!el) return;
  el.textContent = '';
  setTimeout(() => { el.textContent = text; }, 30);
}

const sanOf = (m) => (C.LANG === 'es' ? (m.san_es || m.san) : m.san);
const lineSan = (l) => (C.LANG === 'es' ? (l.san_es || l.san) : l.san) || [];
const openingName = (o) => (C.LANG === 'es' ? (o.name_es || o.name_en) : (o.name_en || o.name_es));

/** An evaluation as a player reads it, White's view: `+0.4`, `−1.2`, `#3`, `#−2`. */
function fmtEval(e) {
  if (!e) return '#';
  if (e.mate !== undefined && e.mate !== null) return e.mate < 0 ? `#−${-e.mate}` : `#${e.mate}`;
  const p = (e.cp || 0) / 100;
  if (Math.abs(p) < 0.05) return '0.0';
  return p > 0 ? `+${p.toFixed(1)}` : `−${(-p).toFixed(1)}`;
}

/** The side to move in a FEN. */
const turnOf = (fen) => ((fen || '').split(' ')[1] === 'b' ? 'black' : 'white');

/** The move-list rows: {num, w, b} with ply indices (null where empty), numbered from the start FEN. */
function rows(count, startFen) {
  const f = (startFen || '').split(' ');
  let num = Number(f[5]) || 1;
  const out = [];
  let k = 0;
  if (f[1] === 'b' && count > 0) { out.push({ num, w: null, b: 0 }); k = 1; num += 1; }
  for (; k < count; k += 2) { out.push({ num, w: k, b: k + 1 < count ? k + 1 : null }); num += 1; }
  return out;
}

/** `12.` or `12…` for ply `k`. */
function plyLabel(k, startFen) {
  const r = rows(k + 1, startFen).pop();
  return r.b === k ? `${r.num}…` : `${r.num}.`;
}

/**
 * The number before the `j`-th move of a line from `fen`: `12. ` before
 * White's moves, `12… ` before Black's first; nothing before Black's others.
 */
function moveNumber(fen, j) {
  const f = (fen || '').split(' ');
  const p = (f[1] === 'b' ? 1 : 0) + j;
  const num = (Number(f[5]) || 1) + Math.floor(p / 2);
  if (p % 2 === 0) return `${num}. `;
  return j === 0 ? `${num}… ` : '';
}

function destsMap(legal) {
  const m = new Map();
  for (const [from, tos] of Object.entries(legal || {})) m.set(from, tos);
  return m;
}

const squares = (uci) => [uci.slice(0, 2), uci.slice(2, 4)];

/**
 * A move made on the board, in coordinates. The board only knows that a
 * pawn reached the last rank (what it shows); the server decides whether
 * the move is legal. A promotion is to a queen.
 */
function boardUci(cg, orig, dest) {
  const p = cg.state.pieces.get(dest);
  const last = dest[1] === '8' || dest[1] === '1';
  return p && p.role === 'pawn' && last ? `${orig}${dest}q` : `${orig}${dest}`;
}

/** The server's view of a position: FEN, legal moves, the engine's lines. */
function position(fen, moves, lines, chess960) {
  return C.api('POST', '/api/analysis/position', { fen, moves, lines, chess960: !!chess960 });
}

/** The analyses this browser asked for, newest first (kept for /analisis). */
function remember(list) {
  let old = [];
  try { old = JSON.parse(localStorage.getItem('an:recent') || '[]'); } catch { old = []; }
  const ids = new Set(list.map((x) => x.analysis));
  const all = [...list, ...old.filter((x) => !ids.has(x.analysis))].slice(0, 30);
  try { localStorage.setItem('an:recent', JSON.stringify(all)); } catch { /* private mode */ }
}
function recent() {
  try { return JSON.parse(localStorage.getItem('an:recent') || '[]'); } catch { return []; }
}

// ------------------------------------------------------------------ the analysis board

/**
 * The analysis board: a position (a base FEN and the moves played from it
 * on the board) and the engine's best lines for it, listed with their
 * evaluations and drawn as arrows. Pieces move freely among the legal moves
 * the server sends; the lines follow.
 */
function explorer(cg, linesEl, { chess960 = false, onPosition = () => {} } = {}) {
  const { h } = C;
  let base = START_FEN;
  let moves = [];
  let seq = 0;
  let active = false;
  let shown = null; // the last answer

  // `pending`: the engine's lines are still coming.
  function draw(r, pending = false) {
    shown = r;
    cg.set({
      fen: r.fen,
      turnColor: r.turn,
      lastMove: r.last ? squares(r.last.uci) : undefined,
      check: r.last && /[+#]$/.test(r.last.san) ? r.turn : false,
      movable: { color: r.over ? undefined : r.turn, dests: r.over ? new Map() : destsMap(r.legal) },
    });
    if (!r.last) cg.set({ lastMove: undefined });
    cg.setAutoShapes((r.lines || []).filter((l) => l.uci && l.uci.length)
      .map((l, i) => ({ orig: l.uci[0].slice(0, 2), dest: l.uci[0].slice(2, 4), brush: BRUSHES[i] || 'paleGrey' })));
    const items = (r.lines || []).map((l, i) => h('li', { class: 'an-line-item', 'data-line': i },
      h('span', { class: `an-eval${i === 0 ? ' an-eval-best' : ''}` }, fmtEval(l.eval)), ' ',
      lineSan(l).map((s, j) => h('button', {
        type: 'button', class: 'an-lmv',
        title: A().play_line_to(s),
        onclick: () => { moves = moves.concat(l.uci.slice(0, j + 1)); load(); },
      }, `${moveNumber(r.fen, j)}${s}`))));
    const over = r.over ? h('p', { class: 'an-over' }, (C.t.terminations && C.t.terminations[r.over]) || r.over) : null;
    const opening = r.opening ? h('p', { class: 'muted an-explore-opening' }, `${r.opening.eco} · ${openingName(r.opening)}`) : null;
    linesEl.replaceChildren(...[
      h('p', { class: 'an-explore-head' }, h('strong', {}, A().board_title), ' ',
        h('span', { class: 'muted' }, r.turn === 'white' ? C.t.turn_white : C.t.turn_black)),
      opening, over,
      items.length ? h('ol', { class: 'an-lines-list' }, items) : (r.over || pending ? null : h('p', { class: 'muted' }, A().no_lines)),
      h('p', { class: 'an-explore-acts' },
        h('button', { type: 'button', id: 'an-explore-back', class: 'secondary', disabled: !moves.length, onclick: () => { moves = moves.slice(0, -1); load(); } }, A().undo), ' ',
        h('button', { type: 'button', id: 'an-explore-reset', class: 'secondary', disabled: !moves.length, onclick: () => { moves = []; load(); } }, A().reset)),
      h('p', { class: 'help' }, A().board_help)].filter(Boolean));
    linesEl.dataset.fen = r.fen;
    linesEl.dataset.ready = '1';
    onPosition(r);
  }

  async function load() {
    const mine = ++seq;
    linesEl.dataset.ready = '0';
    linesEl.setAttribute('aria-busy', 'true');
    const wait = h('p', { class: 'muted an-thinking' }, A().thinking);
    linesEl.prepend(wait);
    try {
      // The legal moves first (no engine: at once), then the engine's lines.
      const quick = await position(base, moves, 0, chess960);
      if (mine !== seq || !active) return;
      draw({ ...quick, lines: shown && shown.fen === quick.fen ? shown.lines : [] }, !quick.over);
      linesEl.prepend(h('p', { class: 'muted an-thinking' }, A().thinking));
      linesEl.dataset.ready = '0';
      const r = quick.over ? quick : await position(base, moves, 3, chess960);
      if (mine !== seq || !active) return;
      draw(r);
      C.showError(null);
    } catch (e) {
      if (mine !== seq) return;
      linesEl.querySelectorAll('.an-thinking').forEach((x) => x.remove());
      if (e.data && e.data.code === 'illegal_move') moves = moves.slice(0, -1);
      C.showError(e);
      if (shown) draw(shown);
    } finally {
      if (mine === seq) linesEl.removeAttribute('aria-busy');
    }
  }

  return {
    get active() { return active; },
    /** Starts at `fen` with `line` (coordinates) played from it. */
    open(fen, line = []) { active = true; base = fen; moves = line.slice(); shown = null; linesEl.hidden = false; load(); },
    close() {
      active = false; seq += 1; linesEl.hidden = true; cg.setAutoShapes([]);
      cg.set({ movable: { color: undefined, dests: new Map() } });
    },
    /** A move made on the board. */
    moved(orig, dest) { moves = moves.concat([boardUci(cg, orig, dest)]); load(); },
  };
}

function newBoard(el, events, fen = START_FEN) {
  const cg = C.Chessground(el, {
    fen,
    coordinates: true,
    viewOnly: false,
    autoCastle: true,
    animation: { enabled: true, duration: 150 },
    highlight: { lastMove: true, check: true },
    movable: { free: false, color: undefined, showDests: true, dests: new Map(), events: { after: events.after } },
    premovable: { enabled: false },
    draggable: { enabled: true, showGhost: true },
    drawable: { enabled: true, visible: true },
  });
  boardKeys(cg, el, {
    t: C.t, say,
    mine: () => cg.state.movable.color || null,
    myTurn: () => true,
  });
  return cg;
}

// ------------------------------------------------------------------ /analisis

async function homePage(main) {
  const { h } = C;
  const T = A();
  document.title = `${T.title} · escaque`;
  const text = h('textarea', { id: 'an-pgn-text', rows: 10, spellcheck: 'false', 'aria-describedby': 'an-pgn-help', placeholder: '1. e4 e5 2. Cf3 …' });
  const file = h('input', {
    id: 'an-pgn-file', type: 'file', accept: '.pgn,application/x-chess-pgn,text/plain',
    onchange: () => {
      const f = file.files && file.files[0];
      if (!f) return;
      if (f.size > 512 * 1024) { C.showError(new Error(T.file_too_large)); return; }
      const rd = new FileReader();
      rd.onload = () => { text.value = String(rd.result || ''); };
      rd.onerror = () => C.showError(new Error(T.file_unreadable));
      rd.readAsText(f);
    },
  });
  const list = h('ul', { id: 'an-list', class: 'an-list', 'aria-live': 'polite' });
  const send = h('button', { type: 'submit', id: 'an-pgn-send' }, T.send_pgn);
  const showList = () => {
    const all = recent();
    list.replaceChildren(...(all.length ? all.map((x) => h('li', { 'data-analysis': x.analysis },
      h('a', { href: `/analisis/${encodeURIComponent(x.analysis)}` }, `${C.shownName(x.white || '?')} – ${C.shownName(x.black || '?')}`),
      x.when ? h('span', { class: 'muted' }, ` · ${new Date(x.when).toLocaleString(C.LANG)}`) : null))
      : [h('li', { class: 'muted' }, T.none_yet)]));
  };
  const form = h('form', {
    id: 'an-pgn-form',
    onsubmit: async (e) => {
      e.preventDefault();
      C.showError(null);
      if (!text.value.trim()) { C.showError(new Error(T.pgn_empty)); return; }
      send.disabled = true;
      try {
        const r = await C.api('POST', '/api/analysis', { pgn: text.value });
        const when = Date.now();
        remember((r.analyses || []).map((x) => ({ ...x, when })));
        showList();
        say(T.sent(r.analyses.length));
        if (r.analyses.length === 1) location.href = `/analisis/${encodeURIComponent(r.analyses[0].analysis)}`;
      } catch (err) { C.showError(err); } finally { send.disabled = false; }
    },
  },
  h('label', { class: 'an-full' }, T.pgn_label, text),
  h('label', {}, T.pgn_file, file),
  send,
  h('p', { id: 'an-pgn-help', class: 'help' }, T.pgn_help));

  // The analysis board from a FEN.
  const fen = h('input', { id: 'an-fen', size: 48, spellcheck: 'false', autocomplete: 'off', value: START_FEN });
  const c960 = h('input', { id: 'an-fen-960', type: 'checkbox' });
  const boardEl = h('div', { id: 'an-board', class: 'board' });
  const linesEl = h('div', { id: 'an-lines', class: 'an-lines', 'aria-live': 'polite', hidden: true });
  const fenForm = h('form', {
    id: 'an-fen-form',
    onsubmit: (e) => { e.preventDefault(); C.showError(null); ex.close(); ex = makeEx(); ex.open(fen.value.trim() || START_FEN); },
  },
  h('label', { class: 'an-full' }, T.fen_label, fen),
  h('label', { class: 'srlabel' }, h('span', {}, c960, ' ', T.chess960)),
  h('button', { type: 'submit', id: 'an-fen-go' }, T.fen_go),
  h('button', { type: 'button', id: 'an-fen-start', class: 'secondary', onclick: () => { fen.value = START_FEN; fenForm.requestSubmit(); } }, T.fen_start));

  main.append(h('h1', {}, T.title),
    h('div', { class: 'an-top' },
      h('section', { class: 'card', 'aria-labelledby': 'h-an-pgn' }, h('h2', { id: 'h-an-pgn' }, T.pgn_title), form),
      h('section', { class: 'card', 'aria-labelledby': 'h-an-list' }, h('h2', { id: 'h-an-list' }, T.recent), list)),
    h('section', { class: 'card an-wide', 'aria-labelledby': 'h-an-board' }, h('h2', { id: 'h-an-board' }, T.board_title), fenForm,
      h('div', { class: 'an-explore-box' }, h('div', { class: 'an-board-wrap' }, boardEl), linesEl)));
  showList();
  const cg = newBoard(boardEl, { after: (o, d) => ex.moved(o, d) });
  window.escaqueAnalysis = cg;
  const makeEx = () => explorer(cg, linesEl, {
    chess960: c960.checked,
    onPosition: (r) => { fen.value = r.fen; },
  });
  let ex = makeEx();
  const q = new URLSearchParams(location.search).get('fen');
  if (q) fen.value = q;
  ex.open(fen.value.trim() || START_FEN);
}

// ------------------------------------------------------------------ /analisis/{id}

async function analysisPage(main, aid, me) {
  const { h } = C;
  const T = A();
  let V;
  try { V = await C.api('GET', `/api/analysis/${encodeURIComponent(aid)}`); } catch (e) {
    main.append(h('h1', {}, T.title), h('p', { class: 'error', id: 'an-missing' }, e.status === 404 ? T.not_found : e.message));
    return;
  }
  // Kept for /analisis's list "Tus análisis".
  remember([{ analysis: aid, white: V.white, black: V.black, when: Date.now() }]);
  const title = h('h1', { id: 'an-title' });
  const head = h('p', { id: 'an-head', class: 'an-head' });
  const status = h('p', { id: 'an-status', role: 'status', 'aria-live': 'polite' });
  const body = h('div', { id: 'an-body' });
  main.classList.add('an-page');
  main.append(title, head, status, body);

  function header() {
    const result = V.result && V.result !== '*' ? ` ${V.result}` : '';
    title.textContent = `${T.title}: ${C.shownName(V.white || '?')} – ${C.shownName(V.black || '?')}${result}`;
    document.title = `${title.textContent} · escaque`;
    const parts = [];
    if (V.opening) parts.push(h('span', { id: 'an-opening' }, `${V.opening.eco} · ${openingName(V.opening)}`));
    if (V.game) parts.push(h('a', { href: `/mis-partidas/${encodeURIComponent(V.game)}`, id: 'an-game-link' }, T.to_game));
    const engine = (V.analysis && V.analysis.engine) || V.engine;
    if (engine) parts.push(h('span', { class: 'muted' }, T.by_engine(engine, V.analysis && V.analysis.settings)));
    head.replaceChildren(...parts.flatMap((p, i) => (i ? [' · ', p] : [p])));
  }

  // Queued or running: a progress bar, the view asked again every 500 ms.
  async function waitDone() {
    for (;;) {
      header();
      if (V.status === 'done' && V.analysis) return true;
      if (V.status === 'failed') {
        status.replaceChildren(h('span', { class: 'error', id: 'an-failed' }, T.failed(V.error || '')));
        return false;
      }
      const p = V.progress || { done: 0, total: 0 };
      const bar = document.getElementById('an-progress') || h('progress', { id: 'an-progress', 'aria-label': T.progress_label });
      if (p.total) { bar.max = p.total; bar.value = p.done; } else bar.removeAttribute('value');
      const words = V.status === 'queued' ? T.queued(V.queue || 0) : T.running(p.done, p.total);
      status.replaceChildren(h('span', { id: 'an-status-text' }, words), ' ', bar);
      await new Promise((r) => { setTimeout(r, POLL_MS); });
      try { V = await C.api('GET', `/api/analysis/${encodeURIComponent(aid)}`); C.showError(null); } catch (e) { C.showError(e); }
    }
  }
  if (!(await waitDone())) return;
  status.replaceChildren();
  status.hidden = true;
  say(T.done);
  showAnalysis(body, aid, V, me);
}

function showAnalysis(body, aid, V, me) {
  const { h } = C;
  const T = A();
  const G = V.analysis;
  const plies = G.plies || [];
  const n = plies.length;
  const startFen = G.start_fen || V.start_fen || START_FEN;
  const chess960 = !!V.chess960;
  let cur = n; // plies shown (0: the start)
  let mode = 'game'; // 'game' | 'explore' | 'learn'
  let flipped = false;
  let learn = null;

  const fenAt = (k) => (k === 0 ? startFen : plies[k - 1].fen);
  const wcAt = (k) => (k === 0 ? (G.start_wc || 0) : (plies[k - 1].wc || 0));
  const evalAt = (k) => (k === 0 ? G.start_eval : plies[k - 1].eval);
  const sideOf = (ply) => turnOf(fenAt(ply)); // who played ply `ply`

  // The viewer's side, if they played this game (and only one side).
  const myName = me && me.name;
  const mySide = myName && myName === V.white && myName !== V.black ? 'white'
    : (myName && myName === V.black && myName !== V.white ? 'black' : null);

  const boardEl = h('div', { id: 'an-board', class: 'board' });
  const info = h('p', { id: 'an-pos', class: 'an-pos', role: 'status', 'aria-live': 'polite' });
  const graph = evalGraph();
  const moveList = h('div', { id: 'an-moves', class: 'an-moves', role: 'list', 'aria-label': C.t.moves });
  const linesEl = h('div', { id: 'an-lines', class: 'an-lines', 'aria-live': 'polite', hidden: true });
  const learnPanel = h('div', { id: 'an-learn-panel', class: 'an-learn', hidden: true, 'aria-live': 'polite' });
  const exploreBtn = h('button', { type: 'button', id: 'an-explore', class: 'secondary', 'aria-pressed': 'false', onclick: () => toggleExplore() }, T.board_toggle);
  const learnBtn = h('button', { type: 'button', id: 'an-learn', onclick: () => startLearn() }, T.learn);
  const nav = h('div', { class: 'controls an-nav' },
    h('button', { type: 'button', id: 'an-first', 'aria-label': C.t.first, onclick: () => go(0) }, '«'),
    h('button', { type: 'button', id: 'an-prev', 'aria-label': C.t.prev, onclick: () => go(cur - 1) }, '‹'),
    h('button', { type: 'button', id: 'an-next', 'aria-label': C.t.next, onclick: () => go(cur + 1) }, '›'),
    h('button', { type: 'button', id: 'an-last', 'aria-label': C.t.last, onclick: () => go(n) }, '»'),
    h('button', { type: 'button', id: 'an-flip', class: 'secondary', onclick: () => { flipped = !flipped; cg.set({ orientation: orientation() }); } }, C.t.flip));

  body.replaceChildren(h('div', { class: 'game an-game' },
    h('div', { class: 'board-col' },
      h('div', { class: 'board-wrap' }, boardEl),
      nav),
    h('div', { class: 'side an-side' },
      graph.el, info,
      h('p', { class: 'an-acts' }, learnBtn, ' ', exploreBtn),
      learnPanel, linesEl,
      h('h2', { class: 'an-moves-title visually-hidden' }, C.t.moves), moveList,
      summary(),
      h('p', { class: 'an-links' },
        h('a', { id: 'an-pgn-es', href: `/api/analysis/${encodeURIComponent(aid)}/pgn?lang=es`, download: `escaque-analisis-${aid}-es.pgn` }, T.pgn_es), ' · ',
        h('a', { id: 'an-pgn-en', href: `/api/analysis/${encodeURIComponent(aid)}/pgn?lang=en`, download: `escaque-analysis-${aid}-en.pgn` }, T.pgn_en)),
      h('p', { class: 'help' }, T.keys_help))));

  const orientation = () => {
    const base = mode === 'learn' && learn ? learn.side : (mySide || 'white');
    return flipped ? (base === 'white' ? 'black' : 'white') : base;
  };
  const cg = newBoard(boardEl, { after: (o, d) => onBoardMove(o, d) }, fenAt(n));
  cg.set({ orientation: orientation() });
  window.escaqueAnalysis = cg;
  const ex = explorer(cg, linesEl, { chess960 });

  // ---------------------------------------------------------------- summary

  function summary() {
    const row = (label, key, fmt, id) => h('tr', {},
      h('th', { scope: 'row' }, label),
      ['white', 'black'].map((s) => h('td', { id: id ? `${id}-${s}` : null, class: 'num' }, fmt(G[s] ? G[s][key] : null))));
    const num = (v) => (v === null || v === undefined ? '—' : String(v));
    const dot = (kind) => h('span', { class: `an-dot an-${kind}`, 'aria-hidden': 'true' });
    return h('table', { class: 'an-summary', id: 'an-summary' },
      h('caption', {}, T.summary),
      h('thead', {}, h('tr', {}, h('td', {}),
        h('th', { scope: 'col' }, '○ ', C.shownName(V.white || C.t.white)),
        h('th', { scope: 'col' }, '● ', C.shownName(V.black || C.t.black)))),
      h('tbody', {},
        row(T.accuracy, 'accuracy', (v) => (v === null || v === undefined ? '—' : `${Math.round(v)} %`), 'an-acc'),
        row(T.acpl, 'acpl', num, 'an-acpl'),
        h('tr', {}, h('th', { scope: 'row' }, dot('inaccuracy'), T.kinds.inaccuracy), ['white', 'black'].map((s) => h('td', { class: 'num', id: `an-inacc-${s}` }, num(G[s] && G[s].inaccuracies)))),
        h('tr', {}, h('th', { scope: 'row' }, dot('mistake'), T.kinds.mistake), ['white', 'black'].map((s) => h('td', { class: 'num', id: `an-mist-${s}` }, num(G[s] && G[s].mistakes)))),
        h('tr', {}, h('th', { scope: 'row' }, dot('blunder'), T.kinds.blunder), ['white', 'black'].map((s) => h('td', { class: 'num', id: `an-blund-${s}` }, num(G[s] && G[s].blunders))))));
  }

  // ---------------------------------------------------------------- graph

  // White's winning chances per position as an area: White's share below
  // the curve (light), Black's above (dark); a dot per marked move; a line
  // at the position shown. A click or tap goes to the nearest position.
  function evalGraph() {
    const NS = 'http://www.w3.org/2000/svg';
    const PAD = 6; // room for a dot at the top or the bottom
    const s = (tag, attrs) => {
      const el = document.createElementNS(NS, tag);
      for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
      return el;
    };
    const svg = s('svg', { id: 'an-graph', class: 'an-graph', role: 'img', 'aria-label': T.graph_label });
    let W = 600;
    let H = 112;
    let at = 0;
    const x = (k) => (n ? PAD + (k / n) * (W - 2 * PAD) : W / 2);
    const y = (wc) => H / 2 - (Math.max(-1, Math.min(1, wc)) * (H / 2 - PAD));
    let cursor = null;
    // Drawn in the box's own pixels (so that the dots stay round), again
    // whenever the box changes size.
    function draw() {
      const b = svg.getBoundingClientRect();
      if (b.width > 0) { W = b.width; H = b.height; }
      svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
      const title = s('title', {});
      title.textContent = T.graph_label;
      const pts = [];
      for (let k = 0; k <= n; k += 1) pts.push(`${x(k).toFixed(1)},${y(wcAt(k)).toFixed(1)}`);
      cursor = s('line', { class: 'an-g-cursor', x1: x(at), y1: 0, x2: x(at), y2: H });
      const marks = plies.filter((p) => p.judgement).map((p) => {
        const c = s('circle', { class: `an-mark an-${p.judgement}`, 'data-ply': p.ply, cx: x(p.ply + 1), cy: y(p.wc || 0), r: 5 });
        const tt = s('title', {});
        tt.textContent = `${plyLabel(p.ply, startFen)} ${sanOf(p)}${SYMBOL[p.judgement]} ${T.kinds[p.judgement]}`;
        c.append(tt);
        return c;
      });
      svg.replaceChildren(title,
        s('rect', { class: 'an-g-black', x: 0, y: 0, width: W, height: H }),
        s('polygon', { class: 'an-g-white', points: `0,${H} 0,${y(wcAt(0)).toFixed(1)} ${pts.join(' ')} ${W},${y(wcAt(n)).toFixed(1)} ${W},${H}` }),
        s('line', { class: 'an-g-mid', x1: 0, y1: H / 2, x2: W, y2: H / 2 }),
        s('polyline', { class: 'an-g-curve', points: pts.join(' ') }),
        cursor, ...marks);
    }
    svg.addEventListener('click', (e) => {
      const b = svg.getBoundingClientRect();
      if (!b.width) return;
      const k = Math.round((((e.clientX - b.left) / b.width) * W - PAD) / (W - 2 * PAD) * n);
      go(k);
    });
    const wrap = h('div', { class: 'an-graph-box' }, svg);
    if (window.ResizeObserver) new ResizeObserver(() => draw()).observe(svg);
    draw();
    return {
      el: wrap,
      at(k) { at = k; if (cursor) { cursor.setAttribute('x1', x(k)); cursor.setAttribute('x2', x(k)); } },
    };
  }

  // ---------------------------------------------------------------- move list

  function moveButton(k) {
    if (k === null) return h('span', { class: 'mv-empty' }, '…');
    const p = plies[k];
    return h('button', {
      type: 'button', class: `mv${p.judgement ? ` an-${p.judgement}` : ''}`, 'data-ply': k,
      'aria-label': `${plyLabel(k, startFen)} ${sanOf(p)}${p.judgement ? `, ${T.kinds[p.judgement]}` : ''}`,
      onclick: () => go(k + 1),
    }, sanOf(p), p.judgement ? h('span', { class: 'an-sym' }, SYMBOL[p.judgement]) : null);
  }

  // Under a marked move: "Era mejor Cf3" and the engine's line, each of
  // its moves a button that shows the position on the analysis board.
  function note(k) {
    const p = plies[k];
    if (!p.judgement) return null;
    const best = C.LANG === 'es' ? (p.best_san_es || p.best_san) : p.best_san;
    const line = C.LANG === 'es' ? (p.line_san_es && p.line_san_es.length ? p.line_san_es : p.line_san) : p.line_san;
    const ev = fmtEval(p.eval);
    return h('div', { class: `an-note an-note-${p.judgement}`, role: 'listitem', 'data-ply': k },
      h('span', { class: 'an-kind' }, `${T.kinds[p.judgement]}${p.eval ? ` (${ev})` : ''}.`), ' ',
      best ? h('span', { class: 'an-better' }, T.better(best)) : null,
      line && line.length ? h('span', { class: 'an-line', 'aria-label': T.line_label }, ' ',
        line.map((s, j) => h('button', {
          type: 'button', class: 'an-lmv', 'data-ply': k, 'data-step': j,
          onclick: () => showLine(k, j),
        }, `${lineNumber(k, j)}${s}`))) : null);
  }

  // The move number in a line from ply k: `12.` before White's move,
  // `12…` before Black's first one.
  function lineNumber(k, j) {
    const ply = k + j;
    const label = plyLabel(ply, startFen);
    if (j === 0) return `${label} `;
    return label.endsWith('.') ? `${label} ` : '';
  }

  function renderMoves() {
    const out = [];
    for (const r of rows(n, startFen)) {
      const wMarked = r.w !== null && plies[r.w].judgement;
      if (wMarked && r.b !== null) {
        out.push(h('div', { class: 'an-row', role: 'listitem' }, h('span', { class: 'num' }, `${r.num}.`), moveButton(r.w), h('span', { class: 'mv-empty' }, '…')));
        out.push(note(r.w));
        out.push(h('div', { class: 'an-row', role: 'listitem' }, h('span', { class: 'num' }, `${r.num}…`), h('span', { class: 'mv-empty' }, ''), moveButton(r.b)));
        out.push(note(r.b));
      } else {
        out.push(h('div', { class: 'an-row', role: 'listitem' }, h('span', { class: 'num' }, `${r.num}.`), moveButton(r.w), r.b === null ? h('span', {}) : moveButton(r.b)));
        if (r.w !== null) out.push(note(r.w));
        if (r.b !== null) out.push(note(r.b));
      }
    }
    if (V.result && V.result !== '*') out.push(h('div', { class: 'an-result', role: 'listitem' }, V.result));
    moveList.replaceChildren(...out.filter(Boolean));
  }

  // ---------------------------------------------------------------- showing a ply

  function go(k) {
    if (mode === 'learn') return;
    cur = Math.max(0, Math.min(n, k));
    show();
  }

  function show() {
    const fen = fenAt(cur);
    const p = cur ? plies[cur - 1] : null;
    graph.at(cur);
    moveList.querySelectorAll('.mv.current').forEach((b) => b.classList.remove('current'));
    const btn = p ? moveList.querySelector(`.mv[data-ply="${cur - 1}"]`) : null;
    if (btn) {
      btn.classList.add('current');
      const box = moveList.getBoundingClientRect();
      const b = btn.getBoundingClientRect();
      if (b.top < box.top || b.bottom > box.bottom) moveList.scrollTop += b.top - box.top - box.height / 2;
    }
    const ev = evalAt(cur);
    const words = [p ? `${plyLabel(cur - 1, startFen)} ${sanOf(p)}${p.judgement ? SYMBOL[p.judgement] : ''}` : C.t.first];
    words.push(ev ? T.eval_is(fmtEval(ev)) : (p ? T.mate_played : ''));
    if (p && p.judgement) {
      const best = C.LANG === 'es' ? (p.best_san_es || p.best_san) : p.best_san;
      words.push(`${T.kinds[p.judgement]}.${best ? ` ${T.better(best)}.` : ''}`);
    }
    info.textContent = words.filter(Boolean).join(' · ');
    if (mode === 'explore') { ex.open(fen); return; }
    cg.set({
      fen,
      turnColor: turnOf(fen),
      lastMove: p ? squares(p.uci) : undefined,
      check: p && /[+#]$/.test(p.san) ? turnOf(fen) : false,
      movable: { color: undefined, dests: new Map() },
    });
    if (!p) cg.set({ lastMove: undefined });
    // The engine's choice in this position: the next move's better move,
    // or the next move itself when it was the engine's.
    const next = plies[cur];
    const best = next ? (next.best || next.uci) : null;
    cg.setAutoShapes(best ? [{ orig: best.slice(0, 2), dest: best.slice(2, 4), brush: 'paleGreen' }] : []);
  }

  // A move of a marked move's line: the analysis board at that position.
  async function showLine(k, j) {
    const p = plies[k];
    if (mode === 'learn') return;
    cur = k;
    graph.at(k);
    if (mode !== 'explore') {
      mode = 'explore';
      exploreBtn.setAttribute('aria-pressed', 'true');
      exploreBtn.textContent = T.board_close;
    }
    // The position before the marked move, the line played from it.
    ex.open(fenAt(k), p.line.slice(0, j + 1));
  }

  function toggleExplore(on = mode !== 'explore') {
    if (mode === 'learn') stopLearn();
    mode = on ? 'explore' : 'game';
    exploreBtn.setAttribute('aria-pressed', on ? 'true' : 'false');
    exploreBtn.textContent = on ? T.board_close : T.board_toggle;
    if (on) ex.open(fenAt(cur)); else { ex.close(); show(); }
  }

  function onBoardMove(orig, dest) {
    if (mode === 'explore') ex.moved(orig, dest);
    else if (mode === 'learn') learnTry(orig, dest);
  }

  // ---------------------------------------------------------------- learn from your mistakes

  function startLearn(side) {
    if (mode === 'explore') toggleExplore(false);
    const pick = side || mySide;
    if (!pick) {
      // A visitor chooses whose mistakes to go over.
      const count = (s) => plies.filter((p) => p.judgement && p.best && sideOf(p.ply) === s).length;
      learnPanel.hidden = false;
      learnPanel.replaceChildren(h('p', {}, T.learn_choose),
        h('p', { class: 'an-acts' },
          h('button', { type: 'button', id: 'an-learn-white', onclick: () => startLearn('white') }, `${C.shownName(V.white || C.t.white)} (${count('white')})`), ' ',
          h('button', { type: 'button', id: 'an-learn-black', onclick: () => startLearn('black') }, `${C.shownName(V.black || C.t.black)} (${count('black')})`), ' ',
          h('button', { type: 'button', class: 'secondary', id: 'an-learn-stop', onclick: stopLearn }, T.learn_stop)));
      return;
    }
    const items = plies.filter((p) => p.judgement && p.best && sideOf(p.ply) === pick).map((p) => p.ply);
    mode = 'learn';
    learnBtn.disabled = true;
    learn = { side: pick, items, i: 0, tries: 0, results: [] };
    flipped = false;
    cg.set({ orientation: orientation() });
    learnPanel.hidden = false;
    if (!items.length) {
      learnPanel.replaceChildren(h('p', { id: 'an-learn-summary' }, T.learn_none(C.t[pick])),
        h('button', { type: 'button', class: 'secondary', id: 'an-learn-stop', onclick: stopLearn }, T.learn_stop));
      return;
    }
    learnItem();
  }

  function stopLearn() {
    learn = null;
    mode = 'game';
    learnBtn.disabled = false;
    learnPanel.hidden = true;
    learnPanel.replaceChildren();
    cg.set({ orientation: orientation() });
    show();
  }

  async function learnItem() {
    const L = learn;
    const k = L.items[L.i];
    const p = plies[k];
    L.tries = 0;
    L.done = false;
    learnPanel.dataset.ready = '0';
    learnPanel.dataset.ply = String(k);
    cur = k;
    graph.at(k);
    const played = `${plyLabel(k, startFen)} ${sanOf(p)}${SYMBOL[p.judgement]}`;
    learnPanel.replaceChildren(
      h('p', { class: 'an-learn-count' }, T.learn_count(L.i + 1, L.items.length)),
      h('p', { id: 'an-learn-task' }, T.learn_task(played, T.kinds[p.judgement])),
      h('p', { id: 'an-learn-verdict', class: 'an-verdict', 'data-verdict': '' }),
      h('p', { class: 'an-acts' },
        h('button', { type: 'button', id: 'an-learn-retry', class: 'secondary', hidden: true, onclick: () => learnReset() }, T.learn_retry), ' ',
        h('button', { type: 'button', id: 'an-learn-solution', class: 'secondary', onclick: () => learnSolution() }, T.learn_solution), ' ',
        h('button', { type: 'button', id: 'an-learn-next', onclick: () => learnNext() }, L.i + 1 < L.items.length ? T.learn_next : T.learn_finish), ' ',
        h('button', { type: 'button', id: 'an-learn-stop', class: 'secondary', onclick: stopLearn }, T.learn_stop)));
    info.textContent = '';
    await learnReset();
  }

  // The position before the marked move, the learner's pieces movable.
  async function learnReset() {
    const L = learn;
    if (!L) return;
    learnPanel.dataset.ready = '0';
    const k = L.items[L.i];
    const fen = fenAt(k);
    const prev = k ? plies[k - 1] : null;
    cg.setAutoShapes([]);
    cg.set({ fen, turnColor: turnOf(fen), lastMove: prev ? squares(prev.uci) : undefined, check: false, movable: { color: undefined, dests: new Map() } });
    const retry = document.getElementById('an-learn-retry');
    if (retry) retry.hidden = true;
    try {
      const r = await position(fenAt(k), [], 0, chess960);
      if (learn !== L || L.items[L.i] !== k) return;
      cg.set({ check: prev && /[+#]$/.test(prev.san) ? r.turn : false, movable: { color: L.side, dests: destsMap(r.legal) } });
      learnPanel.dataset.ready = '1';
    } catch (e) { C.showError(e); }
  }

  async function learnTry(orig, dest) {
    const L = learn;
    const k = L.items[L.i];
    const uci = boardUci(cg, orig, dest);
    cg.set({ movable: { color: undefined, dests: new Map() } });
    learnPanel.dataset.ready = '0';
    const out = document.getElementById('an-learn-verdict');
    let r;
    try { r = await C.api('POST', `/api/analysis/${encodeURIComponent(aid)}/try`, { ply: k, uci }); } catch (e) {
      C.showError(e);
      await learnReset();
      return;
    }
    if (learn !== L) return;
    const mine = C.LANG === 'es' ? (r.san_es || r.san) : r.san;
    const best = C.LANG === 'es' ? (r.best_san_es || r.best_san) : r.best_san;
    out.dataset.verdict = r.verdict;
    out.className = `an-verdict an-verdict-${r.verdict}`;
    if (r.verdict === 'best' || r.verdict === 'good') {
      out.textContent = r.verdict === 'best' ? T.verdict_best(mine) : T.verdict_good(mine, best);
      if (!L.done) L.results[L.i] = L.tries === 0 ? 'first' : 'later';
      L.done = true;
      cg.setAutoShapes([{ orig: uci.slice(0, 2), dest: uci.slice(2, 4), brush: 'green' }]);
      document.getElementById('an-learn-solution').hidden = true;
    } else {
      out.textContent = T.verdict_not_yet(mine);
      L.tries += 1;
      document.getElementById('an-learn-retry').hidden = false;
    }
    learnPanel.dataset.ready = '1';
    say(out.textContent);
  }

  async function learnSolution() {
    const L = learn;
    const k = L.items[L.i];
    const p = plies[k];
    if (!L.done) L.results[L.i] = 'shown';
    L.done = true;
    const best = C.LANG === 'es' ? (p.best_san_es || p.best_san) : p.best_san;
    const line = (C.LANG === 'es' ? p.line_san_es : p.line_san) || [];
    const out = document.getElementById('an-learn-verdict');
    out.dataset.verdict = 'solution';
    out.className = 'an-verdict an-verdict-solution';
    out.textContent = T.solution(best, line.slice(1).join(' '));
    document.getElementById('an-learn-retry').hidden = true;
    try {
      const r = await position(fenAt(k), [p.best], 0, chess960);
      if (learn !== L) return;
      cg.set({ fen: r.fen, turnColor: r.turn, lastMove: squares(p.best), movable: { color: undefined, dests: new Map() } });
      cg.setAutoShapes([{ orig: p.best.slice(0, 2), dest: p.best.slice(2, 4), brush: 'green' }]);
    } catch (e) { C.showError(e); }
    say(out.textContent);
  }

  function learnNext() {
    const L = learn;
    if (!L.done) L.results[L.i] = 'skipped';
    L.i += 1;
    if (L.i < L.items.length) { learnItem(); return; }
    const c = (w) => L.results.filter((x) => x === w).length;
    learnPanel.replaceChildren(
      h('p', { id: 'an-learn-summary', class: 'an-learn-summary' }, T.learn_summary(L.items.length, c('first'), c('later'), c('shown') + c('skipped'))),
      h('p', { class: 'an-acts' },
        h('button', { type: 'button', id: 'an-learn-again', onclick: () => { const s = L.side; stopLearn(); startLearn(s); } }, T.learn_again), ' ',
        h('button', { type: 'button', id: 'an-learn-stop', class: 'secondary', onclick: stopLearn }, T.learn_stop)));
    cg.set({ movable: { color: undefined, dests: new Map() } });
    say(T.learn_summary(L.items.length, c('first'), c('later'), c('shown') + c('skipped')));
  }

  // ---------------------------------------------------------------- keys

  document.addEventListener('keydown', (e) => {
    const tag = e.target && e.target.tagName;
    if (tag === 'INPUT' || tag === 'SELECT' || tag === 'TEXTAREA') return;
    if (e.target && e.target.classList && e.target.classList.contains('cg-wrap')) return; // the board's own keys
    if (mode !== 'game') return;
    if (e.key === 'ArrowLeft') { go(cur - 1); e.preventDefault(); }
    if (e.key === 'ArrowRight') { go(cur + 1); e.preventDefault(); }
    if (e.key === 'Home') { go(0); e.preventDefault(); }
    if (e.key === 'End') { go(n); e.preventDefault(); }
  });

  renderMoves();
  show();
}
