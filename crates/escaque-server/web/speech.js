// Words for a screen reader: moves ("caballo de g1 a f3, jaque") and the board
// read by rank, file or piece. No chess rules here: the piece on a square is
// read from the FEN the server sent, and check/capture/castling from its SAN.

const LETTER = { k: 'k', q: 'q', r: 'r', b: 'b', n: 'n', p: 'p' };

/** Square name -> {color: 'w'|'b', role: 'k'|'q'|...} from a FEN's first field. */
export function pieces(fen) {
  const out = {};
  const rows = (fen || '').split(' ')[0].split('/');
  rows.forEach((row, i) => {
    let file = 0;
    for (const ch of row) {
      if (/[1-8]/.test(ch)) { file += Number(ch); continue; }
      const lower = ch.toLowerCase();
      if (LETTER[lower] && file < 8) {
        out['abcdefgh'[file] + (8 - i)] = { color: ch === lower ? 'b' : 'w', role: lower };
      }
      file += 1;
    }
  });
  return out;
}

/** The move in words. `before` is the FEN before it, `uci` like g1f3 or e7e8q, `san` in English. */
export function moveWords(t, before, uci, san) {
  const board = pieces(before);
  const from = uci.slice(0, 2), to = uci.slice(2, 4);
  const p = board[from];
  const parts = [];
  if (/^O-O-O/.test(san)) parts.push(t.sr_castle_long);
  else if (/^O-O/.test(san)) parts.push(t.sr_castle_short);
  else {
    const name = p ? t.pieces[p.role] : '';
    parts.push(t.sr_from_to(name, from, to));
    if (san.includes('x')) parts.push(t.sr_captures);
    if (uci.length === 5) parts.push(t.sr_promotes(t.pieces[uci[4]] || uci[4]));
  }
  if (san.endsWith('#')) parts.push(t.sr_mate);
  else if (san.endsWith('+')) parts.push(t.sr_check);
  return parts.join(', ');
}

/** "peón blanco": a piece ({color: 'w'|'b', role: 'p'|…}) in words. */
export function pieceName(t, p) {
  return p.color === 'w' ? t.sr_white_piece(t.pieces[p.role]) : t.sr_black_piece(t.pieces[p.role]);
}

/** Reads rank N, file X, or the squares of a piece kind. */
export function readBoard(t, fen, cmd) {
  const board = pieces(fen);
  const c = cmd.trim().toLowerCase();
  let m = c.match(/^(?:f|fila|r|rank)\s*([1-8])$/);
  if (m) {
    const r = m[1];
    return `${t.rank} ${r}: ` + [...'abcdefgh'].map((f) => {
      const p = board[f + r];
      return `${f}${r} ${p ? pieceName(t, p) : t.empty}`;
    }).join(', ');
  }
  m = c.match(/^(?:c|columna|file)\s*([a-h])$/);
  if (m) {
    const f = m[1];
    return `${t.file} ${f}: ` + [1, 2, 3, 4, 5, 6, 7, 8].map((r) => {
      const p = board[f + r];
      return `${f}${r} ${p ? pieceName(t, p) : t.empty}`;
    }).join(', ');
  }
  m = c.match(/^(?:p|pieza|piece)\s+(.+)$/);
  if (m) {
    const want = m[1].trim();
    const role = Object.keys(t.pieces).find((k) => t.pieces[k] === want || k === want);
    if (!role) return t.sr_unknown;
    const found = Object.entries(board).filter(([, p]) => p.role === role)
      .map(([sq, p]) => `${pieceName(t, p)} ${sq}`);
    return found.length ? found.join(', ') : t.none_found;
  }
  return null;
}
