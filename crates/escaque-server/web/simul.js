// The simul pages (issue 26): /clases/{id}/simultanea (a teacher starts a
// simultaneous exhibition; the class's simuls) and /simul/{id} (the host's
// grid of boards, moving from board to board; a pupil's or co-teacher's
// view, read-only). The server holds every rule: each board is a game with
// its own socket, which sends the legal moves, the clock and the verdicts.

import { boardKeys } from './boardkeys.js';

let C; // the shared helpers from app.js
let T; // this page's texts (catalogue section `sim`)

/** Shows the simul page for `path`; `helpers` is app.js's helpers object. */
export async function route(path, el, me, helpers) {
  C = helpers;
  T = C.t.sim;
  addStyle();
  let m;
  if ((m = path.match(/^\/clases\/([A-Za-z0-9]+)\/simultanea$/))) await startPage(el, me, m[1]);
  else if ((m = path.match(/^\/simul\/([A-Za-z0-9]+)$/))) await simulPage(el, me, m[1]);
}

// ------------------------------------------------------------------ shared

// The page's own rules, kept with it (the page is imported only here).
const STYLE = `
main.sim.sim { display: block; max-width: 1500px; }
main.sim h1 { margin: 0.3rem 0; overflow-wrap: anywhere; }
.sim .sim-head { display: flex; flex-wrap: wrap; gap: 0.4rem 1.2rem; align-items: baseline; }
.sim .sim-score { font-size: 1.3rem; font-weight: 700; font-variant-numeric: tabular-nums; }
.sim form.sim-form { display: flex; flex-direction: column; gap: 0.6rem; align-items: flex-start; }
.sim fieldset { border: 1px solid var(--line); border-radius: 6px; width: 100%; box-sizing: border-box; }
.sim .sim-pupils { display: grid; grid-template-columns: repeat(auto-fill, minmax(min(100%, 14rem), 1fr)); gap: 0.2rem 0.8rem; }
.sim .sim-pupils label { display: flex; flex-direction: row; gap: 0.4rem; align-items: center; overflow-wrap: anywhere; }
.sim .dot { display: inline-block; width: 0.6rem; height: 0.6rem; border-radius: 50%; background: var(--line); flex: none; }
.sim .dot.on { background: var(--ok); }
.simul-grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(min(100%, 12rem), 1fr)); grid-auto-flow: dense; gap: 0.8rem; align-items: start; margin-top: 0.6rem; }
.simul-board { background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 0.45rem; display: flex; flex-direction: column; gap: 0.3rem; min-width: 0; }
.simul-board .sb-head { display: flex; justify-content: space-between; gap: 0.4rem; align-items: center; margin: 0; }
.simul-board .sb-select { background: none; color: var(--fg); border: none; padding: 0; font-weight: 700; text-align: left; overflow-wrap: anywhere; }
.simul-board .sb-line { margin: 0; display: flex; justify-content: space-between; gap: 0.4rem; overflow-wrap: anywhere; }
.simul-board .sb-status { margin: 0; min-height: 1.3em; }
.simul-board .sb-result { white-space: nowrap; }
.simul-board .sb-acts { display: flex; flex-wrap: wrap; gap: 0.3rem; align-items: center; }
.simul-board .sb-acts button, .simul-board .sb-acts .button { padding: 0.2rem 0.5rem; font-size: 0.9em; }
.simul-board .board { width: 100%; }
.simul-board.host-turn { border-color: var(--accent); box-shadow: 0 0 0 2px var(--accent); }
.simul-board.over { opacity: 0.85; }
.simul-board.simul-mine { border: 3px solid var(--ok); }
.simul-board.simul-current { grid-column: 1 / -1; order: -1; border: 3px solid var(--accent); box-shadow: none; padding: 0.6rem; }
@media (min-width: 900px) { .simul-board.simul-current { grid-column: span 3; grid-row: span 2; } }
.simul-board.simul-current .board, .simul-board.simul-current .sb-wide { width: min(100%, 36rem, calc(100vh - 21rem)); min-width: min(100%, 16rem); margin: 0 auto; }
.simul-board.simul-current .sb-head, .simul-board.simul-current .sb-line, .simul-board.simul-current .sb-status, .simul-board.simul-current .sb-acts { width: min(100%, 36rem, calc(100vh - 21rem)); min-width: min(100%, 16rem); margin-left: auto; margin-right: auto; }
.simul-board.simul-current .sb-status { font-size: 1.1rem; font-weight: 600; }
.simul-board .sb-promo { display: flex; gap: 0.3rem; flex-wrap: wrap; }
.simul-board .sb-move { display: flex; gap: 0.3rem; flex-wrap: wrap; align-items: center; }
.simul-board .sb-move input { width: 7em; }
`;

function addStyle() {
  if (document.getElementById('simul-style')) return;
  const s = document.createElement('style');
  s.id = 'simul-style';
  s.textContent = STYLE;
  document.head.append(s);
}

const wsUrl = (path) => `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${path}`;
const seatKey = (game) => `seat:${game}`;
const savedSeat = (game) => { try { return localStorage.getItem(seatKey(game)); } catch { return null; } };

/** 1.5 → "1½", 0.5 → "½". */
function points(x) {
  const whole = Math.floor(x);
  const half = x - whole >= 0.5;
  if (!half) return String(whole);
  return whole === 0 ? '½' : `${whole}½`;
}

function notFound(main, e) {
  main.append(C.h('p', { class: 'error', id: 'simul-missing' }, e && e.status === 404 ? T.not_found : (e && e.message) || String(e)));
}

/**
 * A pupil waiting on a simul page is taken to its game when the teacher
 * starts or restarts its board: the lobby socket carries `your_game`.
 */
function followYourGame() {
  let delay = 1000;
  const open = () => {
    const ws = new WebSocket(wsUrl('/ws/lobby'));
    ws.onopen = () => { delay = 1000; };
    ws.onmessage = (ev) => {
      let m;
      try { m = JSON.parse(ev.data); } catch { return; }
      if (m.t === 'your_game' && m.game) { C.keepSeat(m); location.href = `/partida/${m.game}`; }
    };
    ws.onclose = () => { setTimeout(open, delay); delay = Math.min(delay * 2, 10000); };
  };
  open();
}

// ------------------------------------------------------------------ start a simul

async function startPage(main, me, classId) {
  const { h, api } = C;
  main.classList.add('sim');
  const base = `/api/classes/${encodeURIComponent(classId)}/simuls`;
  let data;
  try { data = await api('GET', base); } catch (e) { main.append(h('h1', {}, T.title)); notFound(main, e); return; }
  // A member who is not a pupil is one of the class's teachers.
  const teacher = !!(me && me.account && !me.managed);
  main.append(h('div', { class: 'sim-head' },
    h('h1', {}, T.title),
    h('a', { href: `/clases/${encodeURIComponent(classId)}`, id: 'simul-back' }, T.back_class)));
  if (teacher) main.append(startForm(classId, base, data.pupils || []));
  else followYourGame();
  const list = h('ul', { id: 'simul-list', class: 'links' });
  const simuls = data.simuls || [];
  if (!simuls.length) list.append(h('li', { class: 'muted' }, T.none_yet));
  for (const s of simuls) {
    const date = new Date(s.created_ms).toLocaleString(C.LANG, { dateStyle: 'short', timeStyle: 'short' });
    list.append(h('li', { 'data-simul': s.id },
      h('a', { href: `/simul/${encodeURIComponent(s.id)}` }, T.listed(date, s.host, s.boards)),
      s.in_play ? ` · ${T.in_play(s.in_play)}` : ` · ${T.finished}`));
  }
  main.append(h('section', { class: 'card', 'aria-labelledby': 'h-simul-list' },
    h('h2', { id: 'h-simul-list' }, T.class_simuls), list));
}

function startForm(classId, base, pupils) {
  const { h, api } = C;
  const count = h('span', { id: 'simul-count', 'aria-live': 'polite' });
  const boxes = pupils.map((p) => h('label', {},
    h('input', { type: 'checkbox', name: 'pupil', value: p.name, checked: p.online, onchange: () => counted() }),
    h('span', { class: `dot${p.online ? ' on' : ''}`, title: p.online ? T.online : T.offline, 'aria-hidden': 'true' }),
    h('span', { class: 'name' }, p.name),
    p.online ? h('span', { class: 'visually-hidden' }, ` (${T.online})`) : null));
  const ticked = () => [...document.querySelectorAll('#simul-pupils input[name=pupil]')].filter((x) => x.checked).map((x) => x.value);
  function counted() { count.textContent = T.boards_n(ticked().length); }
  const setAll = (on) => () => {
    document.querySelectorAll('#simul-pupils input[name=pupil]').forEach((x) => { x.checked = on; });
    counted();
  };
  const form = h('form', {
    id: 'simul-form', class: 'sim-form',
    onsubmit: async (e) => {
      e.preventDefault();
      const chosen = ticked();
      if (!chosen.length) { C.showError(T.choose_some); return; }
      const tc = document.getElementById('simul-tc').value.trim();
      const body = { pupils: chosen, host_color: document.getElementById('simul-color').value };
      if (tc && tc !== '-' && tc !== C.t.no_clock) body.time_control = tc;
      const btn = document.getElementById('simul-start');
      btn.disabled = true;
      try {
        const s = await api('POST', base, body);
        for (const b of s.boards) C.keepSeat({ game: b.game, secret: b.secret });
        location.href = `/simul/${encodeURIComponent(s.id)}`;
      } catch (err) { C.showError(err); btn.disabled = false; }
    },
  },
  h('fieldset', {},
    h('legend', {}, T.pupils),
    pupils.length
      ? h('div', { id: 'simul-pupils', class: 'sim-pupils' }, boxes)
      : h('p', { class: 'muted', id: 'simul-pupils' }, T.no_pupils),
    h('p', { class: 'sb-acts' },
      h('button', { type: 'button', class: 'secondary', id: 'simul-all', onclick: setAll(true) }, T.all),
      h('button', { type: 'button', class: 'secondary', id: 'simul-none', onclick: setAll(false) }, T.none),
      ' ', count)),
  h('label', {}, T.clock, ' ',
    h('input', { id: 'simul-tc', list: 'simul-tc-list', value: '', placeholder: C.t.no_clock, size: 8, autocomplete: 'off' }),
    h('datalist', { id: 'simul-tc-list' }, ['10+5', '15+10', '25+10', '30+0'].map((c) => h('option', { value: c })), h('option', { value: '-', label: C.t.no_clock }))),
  h('label', {}, T.your_color, ' ',
    h('select', { id: 'simul-color' },
      h('option', { value: 'white', selected: true }, C.t.white),
      h('option', { value: 'black' }, C.t.black),
      h('option', { value: 'random' }, T.random_each))),
  h('p', { class: 'help' }, T.help),
  h('button', { type: 'submit', id: 'simul-start' }, T.start));
  const card = h('section', { class: 'card', 'aria-labelledby': 'h-simul-new' }, h('h2', { id: 'h-simul-new' }, T.new_simul), form);
  setTimeout(counted, 0);
  void classId;
  return card;
}

// ------------------------------------------------------------------ the grid

async function simulPage(main, me, id) {
  const { h, api } = C;
  main.classList.add('sim');
  const base = `/api/simuls/${encodeURIComponent(id)}`;
  let V;
  try { V = await api('GET', base); } catch (e) { main.append(h('h1', {}, T.title)); notFound(main, e); return; }
  const host = V.you === 'host';
  const teacher = V.you === 'host' || V.you === 'teacher';
  const score = h('span', { id: 'simul-score', class: 'sim-score', 'aria-live': 'polite' });
  const note = h('p', { id: 'simul-note', class: 'muted', 'aria-live': 'polite' });
  const grid = h('div', { id: 'simul-grid', class: 'simul-grid' });
  main.append(h('div', { class: 'sim-head' },
    h('h1', {}, T.simul_of(V.host)), score,
    h('a', { href: `/clases/${encodeURIComponent(V.class)}`, id: 'simul-back' }, T.back_class),
    h('a', { href: `/clases/${encodeURIComponent(V.class)}/simultanea` }, T.class_simuls)));
  const yours = h('p', { id: 'simul-yours' });
  if (V.you === 'pupil') { main.append(yours); followYourGame(); }
  main.append(h('p', { class: 'muted' }, `${V.time_control ? `${T.clock}: ${V.time_control}` : C.t.no_clock}`), note, grid);

  const cells = new Map(); // board number -> cell
  let current = null; // the host's board in front

  function showScore() {
    score.textContent = T.score(V.host, points(V.score.host), points(V.score.pupils));
    if (V.you === 'pupil') {
      const b = V.boards.find((x) => x.board === V.your_board);
      yours.replaceChildren(b ? h('a', { href: `/partida/${encodeURIComponent(b.game)}`, id: 'simul-your-game', class: 'button' }, T.your_game(b.board)) : '');
    }
  }

  // ---------------------------------------------------------------- one board

  function makeCell(b) {
    const cell = {
      board: b.board, game: null, attempt: 0, hostColor: b.host_color, pupil: b.pupil,
      S: null, ws: null, closed: false, secret: null, clock: null, confirmResign: false, promo: null, pending: false,
    };
    cell.boardEl = h('div', { class: 'board' });
    cell.clocks = { host: h('span', { class: 'mini-clock' }), pupil: h('span', { class: 'mini-clock' }) };
    cell.status = h('p', { class: 'sb-status', role: 'status' });
    cell.acts = h('div', { class: 'sb-acts' });
    cell.result = h('span', { class: 'sb-result' });
    cell.el = h('article', { class: 'simul-board', 'data-board': b.board, 'data-pupil': b.pupil, 'aria-label': T.board(b.board) },
      h('p', { class: 'sb-head' },
        h('button', { type: 'button', class: 'sb-select', onclick: () => { if (host) setCurrent(cell.board, true); } }, `${T.board(b.board)} · ${b.pupil}`),
        cell.result),
      // The host sees each board from its side, everybody else from the
      // pupil's: the name above the board is the other side's.
      host ? h('p', { class: 'sb-line' }, h('span', {}, T.pupil_side), cell.clocks.pupil)
        : h('p', { class: 'sb-line' }, h('span', {}, V.host), cell.clocks.host),
      cell.boardEl,
      host ? h('p', { class: 'sb-line' }, h('span', {}, T.you), cell.clocks.host)
        : h('p', { class: 'sb-line' }, h('span', {}, b.pupil), cell.clocks.pupil),
      cell.status, cell.acts);
    if (V.you === 'pupil' && b.board === V.your_board) cell.el.classList.add('simul-mine');
    if (host) {
      cell.el.addEventListener('click', (e) => {
        if (current !== cell.board && !e.target.closest('button, a, input')) setCurrent(cell.board, true);
      });
    }
    cell.cg = C.Chessground(cell.boardEl, {
      coordinates: false,
      viewOnly: !host,
      orientation: host ? b.host_color : (b.host_color === 'white' ? 'black' : 'white'),
      animation: { enabled: true, duration: 100 },
      highlight: { lastMove: true, check: true },
      movable: { free: false, showDests: true, events: { after: (orig, dest) => userMove(cell, orig, dest) } },
      premovable: { enabled: false },
      draggable: { enabled: host, showGhost: true },
      drawable: { enabled: false },
    });
    if (host) {
      // The keyboard, as on the game page: the board in front takes the
      // focus, the arrows move a cursor, Enter picks and plays.
      boardKeys(cell.cg, cell.boardEl, {
        t: C.t,
        say: C.say,
        mine: () => (current === cell.board && hostTurn(cell) && !cell.pending ? cell.hostColor : null),
        myTurn: () => hostTurn(cell),
      });
    }
    grid.append(cell.el);
    cells.set(b.board, cell);
    return cell;
  }

  const hostTurn = (cell) => !!(cell.S && cell.S.status === 'playing' && cell.S.turn === cell.hostColor);

  function send(cell, msg) {
    if (!cell.ws || cell.ws.readyState !== 1) { C.showError(C.t.reconnecting); return false; }
    cell.ws.send(JSON.stringify(msg));
    return true;
  }

  function sendMove(cell, text) {
    // Kept until the server plays it: sent again after a reconnection when
    // it was not (as on the game page, app.js).
    cell.pendingMove = cell.S ? { plies: cell.S.plies, fen: cell.S.fen, text } : null;
    // Played from the keyboard (the board or the typed move has the focus):
    // the keyboard follows the host to the next board.
    const active = document.activeElement;
    const keys = active === cell.boardEl ? 'board' : (active && active.classList.contains('sb-move-input') && cell.el.contains(active) ? 'input' : null);
    if (send(cell, { t: 'move', move: text })) {
      // Sent: the host goes on to the next board waiting; this one is
      // redrawn by the server's answer (until then the board keeps the
      // move as the host made it).
      cell.pending = true;
      advance(cell.board);
      const next = cells.get(current);
      if (keys && next && next !== cell) {
        const to = keys === 'board' ? next.boardEl : next.acts.querySelector('.sb-move-input');
        if (to) to.focus();
      }
    }
  }

  function userMove(cell, orig, dest) {
    const promos = ((cell.S && cell.S.legal_uci) || []).filter((u) => u.length === 5 && u.startsWith(orig + dest));
    if (promos.length) { askPromotion(cell, orig, dest, promos); return; }
    sendMove(cell, orig + dest);
  }

  function askPromotion(cell, orig, dest, promos) {
    cell.promo = h('div', { class: 'sb-promo', role: 'group', 'aria-label': C.t.promote_to },
      h('span', {}, C.t.promote_to),
      ['q', 'r', 'b', 'n'].filter((r) => promos.some((u) => u[4] === r)).map((r) => h('button', {
        type: 'button', class: `promo promo-${r}`,
        onclick: () => { cell.promo = null; sendMove(cell, orig + dest + r); },
      }, C.t.pieces[r])),
      h('button', { type: 'button', class: 'secondary', onclick: () => { cell.promo = null; draw(cell); } }, '✕'));
    renderActs(cell);
  }

  function statusText(cell) {
    const S = cell.S;
    if (!S) return '…';
    if (S.status === 'over') return S.end_text ? (S.end_text[C.LANG] || S.end_text.es) : (S.result || C.t.game_over);
    if (S.status === 'adjourned') return T.adjourned;
    if (S.status === 'resuming') return C.t.resuming;
    const mine = S.turn === cell.hostColor;
    if (host) return mine ? T.your_turn : T.thinks(cell.pupil);
    return mine ? T.host_thinks(V.host) : T.thinks(cell.pupil);
  }

  function renderActs(cell) {
    const S = cell.S;
    const kids = [];
    if (cell.game) kids.push(h('a', { href: `/partida/${encodeURIComponent(cell.game)}`, class: 'button secondary sb-open' }, T.open_game));
    if (S && host && S.status === 'playing') {
      const opp = cell.hostColor === 'white' ? 'black' : 'white';
      if (S.draw_offer === opp) {
        kids.push(h('span', {}, T.draw_offered),
          h('button', { type: 'button', class: 'sb-accept-draw', onclick: () => send(cell, { t: 'accept_draw' }) }, C.t.accept_draw),
          h('button', { type: 'button', class: 'secondary sb-decline-draw', onclick: () => send(cell, { t: 'decline_draw' }) }, C.t.decline_draw));
      } else if (current === cell.board && S.draw_offer !== cell.hostColor) {
        kids.push(h('button', { type: 'button', class: 'secondary sb-offer-draw', onclick: () => send(cell, { t: 'offer_draw' }) }, C.t.offer_draw));
      }
      if (current === cell.board) {
        // Resigning takes two taps (no dialog on a tablet).
        kids.push(h('button', {
          type: 'button', class: 'secondary sb-resign',
          onclick: () => {
            if (!cell.confirmResign) { cell.confirmResign = true; renderActs(cell); return; }
            cell.confirmResign = false;
            send(cell, { t: 'resign' });
          },
        }, cell.confirmResign ? T.confirm_resign : C.t.resign));
      }
    }
    if (S && teacher && S.status === 'over') {
      kids.push(h('button', { type: 'button', class: 'simul-restart', onclick: () => restart(cell) }, T.restart));
    }
    // A move being typed survives the redraw (an answer on another board,
    // a draw offer), and keeps the focus.
    const old = cell.acts.querySelector('.sb-move-input');
    const typed = old ? old.value : '';
    const focused = !!old && document.activeElement === old;
    const parts = [h('div', { class: 'sb-acts-row sb-acts' }, kids)];
    if (cell.promo) parts.unshift(cell.promo);
    if (host && current === cell.board && S && S.status === 'playing') {
      // The move typed, for a keyboard or a screen reader.
      const input = h('input', { class: 'sb-move-input', autocomplete: 'off', autocapitalize: 'off', spellcheck: 'false', 'aria-label': C.t.type_move, placeholder: 'Cf3' });
      input.value = typed;
      parts.push(h('form', {
        class: 'sb-move',
        onsubmit: (e) => { e.preventDefault(); const v = input.value.trim(); if (v) { input.value = ''; sendMove(cell, v); } },
      }, input, h('button', { type: 'submit', class: 'secondary' }, C.t.send)));
    }
    cell.acts.replaceChildren(...parts);
    if (focused) { const again = cell.acts.querySelector('.sb-move-input'); if (again) again.focus(); }
  }

  function draw(cell) {
    const S = cell.S;
    cell.el.classList.toggle('host-turn', hostTurn(cell));
    cell.el.classList.toggle('over', !!S && S.status === 'over');
    cell.el.dataset.status = S ? S.status : '';
    cell.el.dataset.game = cell.game || '';
    cell.el.dataset.attempt = String(cell.attempt);
    cell.el.dataset.plies = S ? String(S.plies) : '';
    cell.result.textContent = S && S.status === 'over' ? (S.result || '') : (cell.attempt > 1 ? T.attempt(cell.attempt) : '');
    if (S && cell.pending) {
      cell.cg.set({ movable: { color: undefined, dests: new Map() } });
    } else if (S) {
      const lm = S.last_move ? [S.last_move.uci.slice(0, 2), S.last_move.uci.slice(2, 4)] : undefined;
      const movable = host && current === cell.board && hostTurn(cell) && !cell.promo;
      cell.cg.set({
        fen: S.fen,
        turnColor: S.turn,
        lastMove: lm,
        check: S.in_check ? S.turn : false,
        movable: { color: movable ? cell.hostColor : undefined, dests: movable ? destsMap(S.legal) : new Map() },
      });
      if (!lm) cell.cg.set({ lastMove: undefined });
      cell.clock = S.clock ? { ...S.clock, at: performance.now() } : null;
      if (cell.clock && S.status !== 'playing') cell.clock.running = null;
    }
    cell.status.textContent = statusText(cell);
    showClock(cell);
    renderActs(cell);
  }

  function showClock(cell) {
    const c = cell.clock;
    for (const side of ['host', 'pupil']) cell.clocks[side].hidden = !c;
    if (!c) return;
    const used = c.running ? Math.max(0, performance.now() - c.at - (c.delay_ms || 0)) : 0;
    const pupilColor = cell.hostColor === 'white' ? 'black' : 'white';
    for (const [side, color] of [['host', cell.hostColor], ['pupil', pupilColor]]) {
      const ms = (color === 'white' ? c.white_ms : c.black_ms) - (c.running === color ? used : 0);
      cell.clocks[side].textContent = C.fmtClock(ms);
      cell.clocks[side].classList.toggle('running', c.running === color);
    }
  }
  setInterval(() => { for (const cell of cells.values()) if (cell.clock && cell.clock.running) showClock(cell); }, 250);

  function destsMap(legal) {
    const m = new Map();
    for (const [from, tos] of Object.entries(legal || {})) m.set(from, tos);
    return m;
  }

  // ---------------------------------------------------------------- from board to board

  function setCurrent(n, byHand) {
    if (!host) return;
    const before = current;
    current = n;
    for (const cell of cells.values()) {
      const on = cell.board === n;
      cell.el.classList.toggle('simul-current', on);
      if (on || cell.board === before) { cell.confirmResign = false; draw(cell); }
    }
    grid.dataset.current = String(n);
    // The board changed size: chessground measures it again.
    requestAnimationFrame(() => { for (const cell of cells.values()) cell.cg.redrawAll(); });
    if (byHand) {
      const cell = cells.get(n);
      if (cell) cell.el.scrollIntoView({ block: 'nearest' });
    }
  }

  /** The next board after `from` (in board order, round the grid) waiting for the host. */
  function nextWaiting(from) {
    const order = [...cells.keys()].sort((a, b) => a - b);
    const i = Math.max(0, order.indexOf(from));
    for (let k = 1; k <= order.length; k += 1) {
      const n = order[(i + k) % order.length];
      if (n !== from && hostTurn(cells.get(n))) return n;
    }
    return null;
  }

  /** The host has moved on board `from`: on to the next board waiting. */
  function advance(from) {
    const n = nextWaiting(from);
    if (n !== null) setCurrent(n, false);
    say();
  }

  /** A board changed: if the board in front is not waiting for the host and another is, that one comes in front. */
  function refocus() {
    if (!host) return;
    const cur = cells.get(current);
    // Not before the board in front has been heard from; not while it waits.
    if (!(cur && (!cur.S || cur.pending || hostTurn(cur)))) {
      const n = nextWaiting(current === null ? 0 : current);
      if (n !== null) setCurrent(n, false);
    }
    say();
  }

  function say() {
    if (!host) return;
    const waiting = [...cells.values()].filter(hostTurn).length;
    const playing = [...cells.values()].filter((c) => c.S && c.S.status === 'playing').length;
    note.textContent = playing === 0 ? T.all_over : (waiting ? T.waiting_n(waiting) : T.all_thinking);
  }

  // ---------------------------------------------------------------- sockets

  async function seatFor(cell) {
    let secret = savedSeat(cell.game);
    if (!secret) {
      try {
        const seat = await api('POST', `/api/games/${encodeURIComponent(cell.game)}/seat`, {});
        C.keepSeat(seat);
        secret = seat.secret;
      } catch { secret = null; }
    }
    return secret;
  }

  async function connect(cell) {
    if (cell.closed) return;
    const game = cell.game;
    if (host && !cell.secret) cell.secret = await seatFor(cell);
    if (cell.closed || game !== cell.game) return;
    const q = cell.secret ? `?seat=${encodeURIComponent(cell.secret)}` : '';
    const ws = new WebSocket(wsUrl(`/ws/games/${encodeURIComponent(game)}${q}`));
    cell.ws = ws;
    let opened = false;
    let resend = false;
    ws.onopen = () => { opened = true; resend = true; };
    ws.onmessage = (ev) => {
      let m;
      try { m = JSON.parse(ev.data); } catch { return; }
      if (m.t === 'ping') { ws.send(JSON.stringify({ t: 'pong', n: m.n })); return; }
      if (m.t === 'error') { cell.pending = false; cell.pendingMove = null; C.showError(m[C.LANG] || m.es); draw(cell); return; }
      if (m.t === 'ack') { C.showError(null); return; }
      if (m.t !== 'state' && m.t !== 'event') return;
      const wasOver = cell.S && cell.S.status === 'over';
      cell.S = m;
      cell.pending = false;
      const p = cell.pendingMove;
      if (p && (m.plies !== p.plies || m.fen !== p.fen)) cell.pendingMove = null;
      if (m.t === 'state' && resend) {
        resend = false;
        // The first state after (re)connecting: a move sent but not played.
        if (cell.pendingMove && hostTurn(cell)) send(cell, { t: 'move', move: cell.pendingMove.text });
        else cell.pendingMove = null;
      }
      draw(cell);
      refocus();
      if (m.status === 'over' && !wasOver) refresh();
    };
    ws.onclose = async () => {
      if (cell.ws !== ws || cell.closed) return;
      // A secret refused (the seat was taken back elsewhere): ask again.
      if (!opened && host) { try { localStorage.removeItem(seatKey(game)); } catch { /* private mode */ } cell.secret = null; }
      setTimeout(() => { if (cell.ws === ws) connect(cell); }, 1000);
    };
  }

  /** Follows board `b`'s current game (a new attempt replaces the old). */
  function follow(b) {
    const cell = cells.get(b.board) || makeCell(b);
    if (cell.game === b.game) return;
    if (cell.ws) { const old = cell.ws; cell.ws = null; old.onclose = null; old.close(); }
    cell.game = b.game;
    cell.attempt = b.attempt;
    cell.hostColor = b.host_color;
    cell.secret = null;
    cell.S = null;
    cell.cg.set({ orientation: host ? b.host_color : (b.host_color === 'white' ? 'black' : 'white') });
    draw(cell);
    connect(cell);
  }

  async function restart(cell) {
    try {
      const r = await api('POST', `${base}/boards/${cell.board}/restart`, {});
      if (r.secret) C.keepSeat({ game: r.game, secret: r.secret });
      C.showError(null);
      await refresh();
    } catch (e) { C.showError(e); }
  }

  let refreshing = false;
  async function refresh() {
    if (refreshing) return;
    refreshing = true;
    try {
      V = await api('GET', base);
      for (const b of V.boards) follow(b);
      showScore();
    } catch { /* the next refresh tries again */ }
    refreshing = false;
  }

  for (const b of V.boards) follow(b);
  showScore();
  if (host) {
    const first = V.boards.find((b) => b.to_move === 'host') || V.boards[0];
    if (first) setCurrent(first.board, false);
  }
  // Restarts by a co-teacher and the score: looked at now and then (each
  // board's moves come on its own socket).
  setInterval(refresh, 5000);
  void me;
}
