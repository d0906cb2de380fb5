// Moving on the board with the keyboard: the board takes focus, the arrow keys
// move a cursor over the squares (up is up on the screen, whichever way the
// board is turned), Enter or Space picks a piece and then its destination,
// Escape lets go. The destinations are the ones the server sent (the board's
// `movable.dests`, set from the state's `legal`); this file knows no rules.
// What is under the cursor is read from the board's pieces and announced in
// words through the page's live region.
import { pieceName } from './speech.js';

const FILES = 'abcdefgh';
const LETTER = { king: 'k', queen: 'q', rook: 'r', bishop: 'b', knight: 'n', pawn: 'p' };

/**
 * Wires the keyboard to a chessground board.
 * `el`: the board's element (it gets the focus); `t`: the catalogue;
 * `say(text)`: announces in the live region; `mine()`: the player's colour or
 * null (a spectator only reads the board); `myTurn()`: true when the player
 * is to move (otherwise a pick queues a premove).
 */
export function boardKeys(cg, el, { t, say, mine, myTurn }) {
  let cursor = null;
  let shown = false;

  el.setAttribute('tabindex', '0');
  el.setAttribute('role', 'application');
  el.setAttribute('aria-roledescription', t.board_role);
  el.setAttribute('aria-label', t.board);

  const start = () => (cg.state.orientation === 'black' ? 'e7' : 'e2');
  const pieceAt = (sq) => cg.state.pieces.get(sq);
  const words = (p) => pieceName(t, { color: p.color === 'white' ? 'w' : 'b', role: LETTER[p.role] });
  const dests = (sq) => {
    const own = cg.state.movable.dests && cg.state.movable.dests.get(sq);
    if (own && own.length) return own;
    const pre = cg.state.premovable.dests;
    return pre && cg.state.selected === sq ? pre : [];
  };

  function draw() {
    const custom = new Map();
    if (shown && cursor) custom.set(cursor, 'kb-cursor');
    cg.set({ highlight: { custom } });
    el.dataset.cursor = shown && cursor ? cursor : '';
  }

  function describe(sq) {
    const p = pieceAt(sq);
    const parts = [`${sq}, ${p ? words(p) : t.empty}`];
    const sel = cg.state.selected;
    if (sel && sel !== sq && dests(sel).includes(sq)) parts.push(t.kb_dest);
    if (sel === sq) parts.push(t.kb_selected);
    return parts.join(', ');
  }

  function move(df, dr) {
    shown = true;
    if (!cursor) cursor = start();
    const black = cg.state.orientation === 'black';
    const f = FILES.indexOf(cursor[0]) + (black ? -df : df);
    const r = Number(cursor[1]) + (black ? -dr : dr);
    if (f >= 0 && f < 8 && r >= 1 && r <= 8) cursor = FILES[f] + r;
    draw();
    say(describe(cursor));
  }

  function pick(sq, p) {
    cg.selectSquare(sq);
    if (cg.state.selected !== sq) { say(t.kb_no_moves(words(p), sq)); return; }
    const ds = dests(sq);
    if (!ds.length) {
      cg.selectSquare(null);
      say(t.kb_no_moves(words(p), sq));
      return;
    }
    say((myTurn() ? t.kb_picked : t.kb_picked_premove)(words(p), sq, [...ds].sort().join(', ')));
  }

  function act() {
    shown = true;
    if (!cursor) cursor = start();
    const me = mine();
    if (!me || cg.state.viewOnly) { say(describe(cursor)); return; }
    const sel = cg.state.selected;
    const p = pieceAt(cursor);
    if (sel && sel !== cursor && dests(sel).includes(cursor)) {
      // The board plays it (or queues the premove) and calls the page's
      // move handler, which sends it to the server or opens the promotion chooser.
      cg.selectSquare(cursor);
      return;
    }
    if (p && p.color === me) {
      if (sel === cursor) { cg.selectSquare(null); say(t.kb_cancel); return; }
      pick(cursor, p);
      return;
    }
    if (sel) { say(t.kb_not_dest(cursor)); return; }
    say(t.kb_not_yours(cursor));
  }

  el.addEventListener('keydown', (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const k = e.key;
    if (k === 'ArrowUp') move(0, 1);
    else if (k === 'ArrowDown') move(0, -1);
    else if (k === 'ArrowLeft') move(-1, 0);
    else if (k === 'ArrowRight') move(1, 0);
    else if (k === 'Enter' || k === ' ') act();
    else if (k === 'Escape') {
      if (cg.state.selected) { cg.selectSquare(null); say(t.kb_cancel); }
      return; // the page's own Escape (premove, chooser) runs too
    } else return;
    e.preventDefault();
    e.stopPropagation();
  });
  el.addEventListener('focus', () => {
    // The cursor shows when the focus came from the keyboard (a click on a
    // piece is not a request for a cursor).
    if (!el.matches(':focus-visible')) return;
    shown = true;
    if (!cursor) cursor = start();
    draw();
    say(describe(cursor));
  });
  el.addEventListener('blur', () => { shown = false; draw(); });
}
