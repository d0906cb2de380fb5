// escaque's tournament pages: the list and the create form (/torneos), the
// public page (/torneos/{id}), the organiser's desk (/torneos/{id}/organizar)
// and the grid of live boards (/torneos/{id}/tableros). The server pairs,
// scores and ranks (escaque-torneo); these pages only show its view and send
// what the organiser or a player does. Every name is put in with textContent
// (the `h` helper), never as markup.

// Results an organiser may type, as the server reads them.
const RESULTS = ['1-0', '½-½', '0-1', '+-', '-+', '--'];
// Unusual results (a game played, FIDE's VCL.13): each player scores their
// own. The desk offers them for a game that is over; the server refuses
// them on an online board still being played (409 game_in_progress).
const UNUSUAL = ['½-0', '0-½', '0-0'];
const TIEBREAKS = ['BH-C1', 'BH', 'BH-M1', 'SB', 'DE', 'WIN', 'WON', 'BPG', 'ARO', 'PS', 'KS'];
const DEFAULT_TIEBREAKS = { dutch: ['BH-C1', 'BH', 'SB', 'DE', 'WIN'], round_robin: ['DE', 'SB', 'WIN', 'KS'], double_round_robin: ['DE', 'SB', 'WIN', 'KS'] };
const CATEGORIES = ['Sub-8', 'Sub-10', 'Sub-12', 'Sub-14', 'Sub-16', 'Sub-18', 'Absoluto', 'Veteranos'];

let C; // the shared helpers from app.js: { h, api, t, LANG, showError, shownName, Chessground, fmtClock, $ }

const tt = () => C.t.tn;

function wsUrl(path) {
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${path}`;
}

/** Keeps a tournament's socket open, calling `on` with each message; reconnects. */
function watch(id, on) {
  let delay = 500;
  let ws;
  const open = () => {
    ws = new WebSocket(wsUrl(`/ws/tournaments/${encodeURIComponent(id)}`));
    ws.onopen = () => { delay = 500; document.body.dataset.connected = '1'; };
    ws.onmessage = (ev) => {
      let m;
      try { m = JSON.parse(ev.data); } catch { return; }
      if (m.t === 'ping') { ws.send(JSON.stringify({ t: 'pong', n: m.n })); return; }
      on(m);
    };
    ws.onclose = () => {
      document.body.dataset.connected = '0';
      setTimeout(open, delay);
      delay = Math.min(delay * 2, 5000);
    };
  };
  open();
}

function systemName(s) { return tt().systems[s] || s; }
function modeName(m) { return tt().modes[m] || m; }
function statusName(s) { return tt().statuses[s] || s; }
function tbName(id, tb) {
  if (tb && C.LANG === 'en' && tb.name_en) return tb.name_en;
  if (tb && tb.name_es && C.LANG === 'es') return tb.name_es;
  return tt().tiebreaks[id] || id;
}
function fmtPoints(p) {
  if (typeof p !== 'number') return '';
  const whole = Math.floor(p);
  const half = p - whole >= 0.5;
  if (!half) return String(whole);
  return whole ? `${whole}½` : '½';
}
function fmtTb(x) {
  if (typeof x !== 'number') return '';
  return x.toLocaleString(C.LANG, { maximumFractionDigits: 2 });
}
function resultText(r) { return r === null || r === undefined ? '' : r; }

/** A player's name by start number (the view's list), shown as text. */
function nameOf(view, n) {
  const p = (view.players || []).find((x) => x.number === n);
  return p ? C.shownName(p.name) : `#${n}`;
}

function table(id, cls, head, rows) {
  const { h } = C;
  return h('div', { class: 'tn-scroll' }, h('table', { id, class: `tn-table ${cls || ''}` },
    h('thead', {}, h('tr', {}, head.map((x) => h('th', { scope: 'col', class: x instanceof Node && x.classList.contains('opt') ? 'opt' : null }, x)))),
    h('tbody', {}, rows)));
}

// ------------------------------------------------------------------ list

async function list(main, me) {
  const { h, api, t } = C;
  const T = tt();
  main.classList.add('tn');
  const listed = h('div', { id: 'tn-list' });
  main.append(h('h1', {}, T.tournaments),
    // Team tournaments have their own pages (web/equipos.js, issue 59).
    h('p', {}, h('a', { id: 'tn-teams-link', href: '/equipos' }, C.LANG === 'en' ? 'Team tournaments (new)' : 'Torneos por equipos (nuevo)')),
    h('section', { class: 'card', 'aria-labelledby': 'h-tn-list' }, h('h2', { id: 'h-tn-list' }, T.tournaments_all), listed),
    createCard(me), importCard());
  let rows = [];
  try { rows = await api('GET', '/api/tournaments'); } catch (e) { C.showError(e); }
  if (rows && !Array.isArray(rows)) rows = rows.tournaments || [];
  if (!rows.length) { listed.replaceChildren(h('p', { class: 'muted' }, T.none)); return; }
  listed.replaceChildren(table('tournaments', '', [T.name, T.mode, T.system, T.round, T.players, T.status],
    rows.map((r) => h('tr', { 'data-tournament': r.id },
      h('td', {}, h('a', { href: `/torneos/${encodeURIComponent(r.id)}` }, r.name)),
      h('td', {}, modeName(r.mode)), h('td', {}, systemName(r.system)),
      h('td', {}, `${r.round || 0} / ${r.rounds}`), h('td', {}, String(r.players ?? '')),
      h('td', {}, statusName(r.status))))));
  void t;
}

function createCard() {
  const { h, api, t } = C;
  const T = tt();
  const order = [...DEFAULT_TIEBREAKS.dutch];
  const tbList = h('ol', { id: 'tn-tiebreaks', class: 'tn-tb' });
  const tbAdd = h('select', { id: 'tn-tb-add', 'aria-label': T.tiebreak_add });
  const drawTb = () => {
    tbList.replaceChildren(...order.map((id, i) => h('li', { 'data-tb': id },
      h('span', {}, `${id} — ${tt().tiebreaks[id] || id}`), ' ',
      h('button', { type: 'button', class: 'tb-up', 'aria-label': T.up, disabled: i === 0, onclick: () => { [order[i - 1], order[i]] = [order[i], order[i - 1]]; drawTb(); } }, '↑'),
      h('button', { type: 'button', class: 'tb-down', 'aria-label': T.down, disabled: i === order.length - 1, onclick: () => { [order[i + 1], order[i]] = [order[i], order[i + 1]]; drawTb(); } }, '↓'),
      h('button', { type: 'button', class: 'tb-remove', 'aria-label': T.remove, onclick: () => { order.splice(i, 1); drawTb(); } }, '✕'))));
    tbAdd.replaceChildren(h('option', { value: '' }, T.tiebreak_add),
      ...TIEBREAKS.filter((x) => !order.includes(x)).map((x) => h('option', { value: x }, `${x} — ${tt().tiebreaks[x]}`)));
  };
  tbAdd.addEventListener('change', () => { if (tbAdd.value) { order.push(tbAdd.value); drawTb(); } });
  drawTb();
  const onlineBox = h('fieldset', { id: 'tn-online', class: 'tn-online', hidden: true },
    h('legend', {}, T.online_settings),
    h('label', { class: 'row' }, h('input', { type: 'checkbox', id: 'tn-auto', checked: true }), ' ', T.auto_pair),
    // Rated play (issue 25): the games between two accounts change their ratings.
    h('label', { class: 'row' }, h('input', { type: 'checkbox', id: 'tn-rated' }), ' ', T.rated_tournament),
    h('label', {}, T.pair_delay, ' ', h('input', { id: 'tn-delay', type: 'number', min: 0, max: 3600, value: 30 })),
    h('label', {}, T.no_show, ' ', h('input', { id: 'tn-noshow', type: 'number', min: 10, max: 3600, value: 120 })),
    h('label', {}, T.registration_until, ' ', h('input', { id: 'tn-regs', type: 'number', min: 0, max: 99, value: 0 })),
    h('label', {}, T.late_bye, ' ', h('select', { id: 'tn-late' }, h('option', { value: 'half' }, T.late_half), h('option', { value: 'zero' }, T.late_zero))));
  const v = (id) => document.getElementById(id);
  const form = h('form', {
    id: 'tn-create',
    onsubmit: async (e) => {
      e.preventDefault();
      const mode = v('tn-mode').value;
      const body = {
        name: v('tn-name').value.trim(),
        system: v('tn-system').value,
        rounds: Number(v('tn-rounds').value),
        mode,
        rules: v('tn-rules').value,
        tiebreaks: order,
      };
      if (v('tn-accel').checked) body.accelerated = true;
      const tc = v('tn-tc').value.trim();
      if (tc && tc !== '-') body.time_control = tc;
      if (mode === 'online') {
        body.settings = {
          auto_pair: v('tn-auto').checked,
          pair_delay_s: Number(v('tn-delay').value),
          no_show_s: Number(v('tn-noshow').value),
          registration_until: Number(v('tn-regs').value),
          late_bye: v('tn-late').value,
          rated: v('tn-rated').checked,
        };
      }
      try {
        const r = await api('POST', '/api/tournaments', body);
        location.href = `/torneos/${encodeURIComponent(r.id)}/organizar`;
      } catch (err) { C.showError(err); }
    },
  },
  h('label', {}, T.name, ' ', h('input', { id: 'tn-name', required: true, maxlength: 120, size: 28 })),
  h('label', {}, T.system, ' ', h('select', {
    id: 'tn-system',
    onchange: (e) => { order.splice(0, order.length, ...DEFAULT_TIEBREAKS[e.target.value]); drawTb(); },
  }, ['dutch', 'round_robin', 'double_round_robin'].map((s) => h('option', { value: s }, systemName(s))))),
  h('label', {}, T.rounds, ' ', h('input', { id: 'tn-rounds', type: 'number', min: 1, max: 99, value: 5, required: true })),
  h('label', {}, T.mode, ' ', h('select', {
    id: 'tn-mode',
    onchange: (e) => { onlineBox.hidden = e.target.value !== 'online'; },
  }, h('option', { value: 'otb' }, modeName('otb')), h('option', { value: 'online' }, modeName('online')))),
  h('label', {}, t.time_control, ' ', h('input', { id: 'tn-tc', value: '10+5', size: 8, autocomplete: 'off' })),
  h('label', {}, t.rules, ' ', h('select', { id: 'tn-rules' }, ['fide2023', 'london1846', 'london1846_english'].map((r) => h('option', { value: r }, t.rule_sets[r])))),
  h('label', { class: 'row' }, h('input', { type: 'checkbox', id: 'tn-accel' }), ' ', T.accelerated),
  h('fieldset', { class: 'tn-tbs' }, h('legend', {}, T.tiebreaks_order), tbList, tbAdd),
  onlineBox,
  h('p', { class: 'help' }, T.categories_help),
  h('button', { type: 'submit', id: 'tn-create-go' }, T.create));
  return h('section', { class: 'card', 'aria-labelledby': 'h-tn-create' }, h('h2', { id: 'h-tn-create' }, T.create_title), form);
}

/**
 * A file's text as escaque reads a TRF (escaque_torneo::trf::decode): UTF-8,
 * or Windows-1252 when the bytes are not valid UTF-8 (older Swiss-Manager and
 * Vega exports), so that "Muñoz" stays "Muñoz" and never becomes "Mu�oz".
 */
async function fileText(f) {
  const bytes = await f.arrayBuffer();
  try { return new TextDecoder('utf-8', { fatal: true }).decode(bytes); } catch { return new TextDecoder('windows-1252').decode(bytes); }
}

function importCard() {
  const { h, api } = C;
  const T = tt();
  return h('section', { class: 'card', 'aria-labelledby': 'h-tn-import' }, h('h2', { id: 'h-tn-import' }, T.import_title),
    h('p', { class: 'help' }, T.import_help),
    h('form', {
      id: 'tn-import',
      onsubmit: async (e) => {
        e.preventDefault();
        const f = document.getElementById('tn-import-file').files[0];
        if (!f) return;
        try {
          const r = await api('POST', '/api/tournaments/import', { trf: await fileText(f) });
          location.href = `/torneos/${encodeURIComponent(r.id)}/organizar`;
        } catch (err) { C.showError(err); }
      },
    }, h('label', {}, T.trf_file, ' ', h('input', { type: 'file', id: 'tn-import-file', accept: '.trf,.txt,text/plain' })),
    h('button', { type: 'submit', id: 'tn-import-go' }, T.import)));
}

// ------------------------------------------------------------------ public page

/** The heading every tournament page shares: name, mode, system, round. */
function heading(view, where) {
  const { h } = C;
  const T = tt();
  const round = view.round || 0;
  const facts = [modeName(view.mode), systemName(view.system), round ? T.round_of(round, view.rounds) : T.rounds_total(view.rounds), statusName(view.status)];
  if (view.settings && view.settings.time_control) facts.push(view.settings.time_control);
  const links = [h('a', { href: `/torneos/${encodeURIComponent(view.id)}`, id: 'to-public', 'aria-current': where === 'public' ? 'page' : null }, T.public_page)];
  if (view.can_edit) {
    links.push(h('a', { href: `/torneos/${encodeURIComponent(view.id)}/organizar`, id: 'to-desk', 'aria-current': where === 'desk' ? 'page' : null }, T.desk));
    if (view.mode === 'online') links.push(h('a', { href: `/torneos/${encodeURIComponent(view.id)}/tableros`, id: 'to-boards', 'aria-current': where === 'boards' ? 'page' : null }, T.boards));
  }
  return h('div', { class: 'tn-head' },
    h('h1', { id: 'tn-title' }, view.name),
    h('p', { id: 'tn-facts', class: 'muted' }, facts.join(' · ')),
    h('nav', { class: 'tn-links', 'aria-label': T.tournament }, links));
}

/** Pairings of round `r` by board, with byes. */
function pairingsTable(view, r, tableId = 'pairings') {
  const { h } = C;
  const T = tt();
  const round = (view.rounds_list || []).find((x) => x.number === r);
  if (!round) return h('p', { class: 'muted', id: tableId }, T.not_paired);
  // Each player's points before the round, while the round is being played
  // (the players' totals are those points then); hidden on a phone.
  const pts = r === view.round && !view.round_complete;
  const before = (n) => (pts ? pointsBefore(view, n) : '');
  const boards = round.boards.map((b) => h('tr', { 'data-board': b.board, 'data-white': b.white, 'data-black': b.black, 'data-result': b.result || '' },
    h('td', { class: 'num' }, String(b.board)),
    h('td', { class: 'w' }, nameOf(view, b.white)), h('td', { class: 'pts opt' }, before(b.white)),
    h('td', { class: 'res' }, resultText(b.result) || '–'),
    h('td', { class: 'pts opt' }, before(b.black)), h('td', { class: 'b' }, nameOf(view, b.black))));
  const byes = (round.byes || []).map((y) => h('tr', { class: 'bye', 'data-bye': y.player },
    h('td', {}, ''), h('td', { class: 'w' }, nameOf(view, y.player)), h('td', { class: 'opt' }, ''),
    h('td', { class: 'res' }, T.bye_kinds[y.kind] || y.kind), h('td', { class: 'opt' }, ''), h('td', {}, '')));
  const optHead = () => h('span', { class: 'opt' }, '');
  return table(tableId, 'pairings', [T.board, T.white, optHead(), T.result, optHead(), T.black], [...boards, ...byes]);
}

function pointsBefore(view, n) {
  const p = (view.players || []).find((x) => x.number === n);
  return p ? `(${fmtPoints(p.points)})` : '';
}

function standingsTable(view, rows, id) {
  const { h } = C;
  const T = tt();
  const st = view.standings || {};
  const tbs = st.tiebreaks || [];
  // On a phone: rank, name, points and the first tie-break (the `opt` columns
  // hide). Club and category only when somebody has one.
  const clubs = (rows || []).some((r) => r.club);
  const cats = (rows || []).some((r) => r.category);
  return table(id, 'standings', [T.rank, h('span', { class: 'opt' }, T.number), T.name, clubs && h('span', { class: 'opt' }, T.club), cats && h('span', { class: 'opt' }, T.category), T.points,
    ...tbs.map((x, i) => h('abbr', { title: tbName(x.id, x), class: i ? 'opt' : null }, x.id))].filter(Boolean),
    (rows || []).map((r) => h('tr', { 'data-number': r.number },
      h('td', { class: 'num' }, String(r.rank)), h('td', { class: 'num opt' }, String(r.number)),
      h('td', { class: 'name' }, C.shownName(r.name)), clubs && h('td', { class: 'opt' }, r.club || ''), cats && h('td', { class: 'opt' }, r.category || ''),
      h('td', { class: 'pts' }, fmtPoints(r.points)),
      ...(r.tiebreaks || []).map((x, i) => h('td', { class: i ? 'num opt' : 'num' }, fmtTb(x))))));
}

function standingsHeading(view) {
  const T = tt();
  const st = view.standings || {};
  let s = st.after_round ? T.standings_after(st.after_round) : T.standings_start;
  if (st.in_progress) s += ` — ${T.in_progress(st.in_progress)}`;
  return s;
}

/** Per-game mark for a side of a board result, as printed cross-tables show it. */
function mark(result, white) {
  const m = {
    '1-0': ['1', '0'], '0-1': ['0', '1'], '½-½': ['½', '½'], '+-': ['+', '−'], '-+': ['−', '+'], '--': ['−', '−'],
    '½-0': ['½', '0'], '0-½': ['0', '½'], '0-0': ['0', '0'],
  }[result];
  if (!m) return '';
  return white ? m[0] : m[1];
}

function crossTable(view) {
  const { h } = C;
  const T = tt();
  const rows = (view.standings && view.standings.rows) || [];
  const rankOf = new Map(rows.map((r) => [r.number, r.rank]));
  const rounds = view.rounds_list || [];
  const cell = (n, round) => {
    for (const b of round.boards) {
      if (b.white === n || b.black === n) {
        const white = b.white === n;
        const opp = white ? b.black : b.white;
        return `${opp}${white ? T.w : T.b} ${mark(b.result, white)}`.trim();
      }
    }
    const y = (round.byes || []).find((x) => x.player === n);
    return y ? (T.bye_marks[y.kind] || y.kind) : '';
  };
  return table('crosstable', 'cross', [T.rank, T.number, T.name, ...rounds.map((r) => `${T.r}${r.number}`), T.points],
    rows.map((r) => h('tr', { 'data-number': r.number },
      h('td', { class: 'num' }, String(rankOf.get(r.number))), h('td', { class: 'num' }, String(r.number)),
      h('td', { class: 'name' }, C.shownName(r.name)),
      ...rounds.map((rd) => h('td', { class: 'cell' }, cell(r.number, rd))),
      h('td', { class: 'pts' }, fmtPoints(r.points)))));
}

function teamsTable(view) {
  const { h } = C;
  const T = tt();
  const teams = view.teams || [];
  if (!teams.length) return h('p', { class: 'muted', id: 'teams' }, T.no_teams);
  return table('teams', '', [T.rank, T.club, T.points, T.players],
    teams.map((x, i) => h('tr', {},
      h('td', { class: 'num' }, String(i + 1)), h('td', { class: 'name' }, x.name), h('td', { class: 'pts' }, fmtPoints(x.points)),
      h('td', {}, (x.players || []).map((p) => (typeof p === 'number' ? nameOf(view, p) : C.shownName(p.name || String(p)))).join(', ')))));
}

function ratingTable(view) {
  const { h } = C;
  const T = tt();
  const rc = view.rating_changes || [];
  if (!rc.length) return h('p', { class: 'muted', id: 'rating' }, T.no_ratings);
  const num = (x, d = 2) => (typeof x === 'number' ? x.toLocaleString(C.LANG, { maximumFractionDigits: d }) : '');
  return table('rating', '', [T.number, T.name, T.games, T.expected, T.score, 'K', T.change],
    rc.map((x) => h('tr', { 'data-number': x.number },
      h('td', { class: 'num' }, String(x.number)), h('td', { class: 'name' }, nameOf(view, x.number)),
      h('td', { class: 'num' }, String(x.games ?? '')), h('td', { class: 'num' }, num(x.expected)), h('td', { class: 'num' }, fmtPoints(x.score)),
      h('td', { class: 'num' }, String(x.k ?? '')), h('td', { class: 'num' }, `${x.change > 0 ? '+' : ''}${num(x.change, 1)}`))));
}

/** The view as the server sends it, with its rounds under `rounds_list` (the API's `rounds` is the count). */
function normalise(v) {
  if (Array.isArray(v.rounds)) {
    const n = v.rounds_planned ?? v.total_rounds ?? v.rounds.length;
    return { ...v, rounds_list: v.rounds, rounds: n };
  }
  return { ...v, rounds_list: v.rounds_list || v.round_list || [] };
}

async function loadView(id) {
  return normalise(await C.api('GET', `/api/tournaments/${encodeURIComponent(id)}`));
}

/** A view from the socket handed to `use`. */
function inOrder(use) {
  return (raw) => use(normalise(raw));
}

const TABS = ['pairings', 'standings', 'crosstable', 'categories', 'teams', 'rating'];

async function publicPage(main, me, id) {
  const { h, api } = C;
  const T = tt();
  main.classList.add('tn', 'tn-public');
  let view;
  try { view = await loadView(id); } catch (e) { main.append(h('p', { class: 'error' }, e.status === 404 ? T.not_found : e.message)); return; }
  let tab = new URLSearchParams(location.search).get('ver') || 'pairings';
  if (!TABS.includes(tab)) tab = 'pairings';
  let shownRound = null; // null: follow the latest round
  let big = localStorage.getItem('tn-big') === '1';
  const head = h('div', {});
  const actions = h('div', { id: 'tn-actions', class: 'tn-actions' });
  const countdown = h('p', { id: 'countdown', class: 'countdown', role: 'status', hidden: true });
  const tabs = h('div', { class: 'tabs', role: 'tablist' });
  const body = h('section', { id: 'tn-body', class: 'card tn-body', 'aria-live': 'polite' });
  main.append(head, actions, countdown, tabs, body);
  document.body.classList.toggle('big', big);
  let cdTimer = null;
  function draw() {
    head.replaceChildren(heading(view, 'public'));
    drawActions();
    tabs.replaceChildren(...TABS.map((k) => h('button', {
      type: 'button', role: 'tab', id: `tab-${k}`, class: `tab${k === tab ? ' on' : ''}`, 'aria-selected': k === tab ? 'true' : 'false',
      onclick: () => { tab = k; history.replaceState(null, '', `?ver=${k}`); draw(); },
    }, T.tabs[k])), h('button', {
      type: 'button', id: 'big', class: 'tab', 'aria-pressed': big ? 'true' : 'false',
      onclick: () => { big = !big; localStorage.setItem('tn-big', big ? '1' : '0'); document.body.classList.toggle('big', big); draw(); },
    }, big ? T.normal_type : T.big_type));
    body.replaceChildren(...tabBody());
    document.body.dataset.tnRound = String(view.round || 0);
  }
  function tabBody() {
    const last = view.round || 0;
    const r = shownRound || last;
    if (tab === 'pairings') {
      const sel = h('select', {
        id: 'round-select', 'aria-label': T.round,
        onchange: (e) => { const n = Number(e.target.value); shownRound = n === last ? null : n; draw(); },
      }, (view.rounds_list || []).map((x) => h('option', { value: x.number, selected: x.number === r }, T.round_n(x.number))));
      return [h('h2', {}, r ? T.pairings_of(r) : T.pairings), (view.rounds_list || []).length > 1 ? sel : '', pairingsTable(view, r)];
    }
    if (tab === 'standings') return [h('h2', { id: 'standings-title' }, standingsHeading(view)), standingsTable(view, (view.standings || {}).rows, 'standings')];
    if (tab === 'crosstable') return [h('h2', {}, T.tabs.crosstable), crossTable(view)];
    if (tab === 'categories') {
      const cats = view.categories || [];
      if (!cats.length) return [h('p', { class: 'muted' }, T.no_categories)];
      return cats.flatMap((c, i) => [h('h2', {}, c.name || T.no_category), standingsTable(view, c.rows, `category-${i}`)]);
    }
    if (tab === 'teams') return [h('h2', {}, T.tabs.teams), teamsTable(view)];
    return [h('h2', {}, T.tabs.rating), h('p', { class: 'help' }, T.rating_help), ratingTable(view)];
  }
  function drawActions() {
    const kids = [];
    if (view.mode === 'online') {
      const mine = view.me ? (view.players || []).find((p) => p.number === view.me) : null;
      if (!mine) {
        if (view.status !== 'finished') {
          kids.push(h('form', {
            id: 'join-form',
            onsubmit: async (e) => {
              e.preventDefault();
              const name = document.getElementById('join-name').value.trim();
              try { await api('POST', `/api/tournaments/${encodeURIComponent(id)}/join`, name ? { name } : {}); C.showError(null); await refresh(); } catch (err) { C.showError(err); }
            },
          }, h('label', {}, T.join_name, ' ', h('input', { id: 'join-name', maxlength: 40, value: me && me.account ? me.name : '', autocomplete: 'nickname' })),
          h('button', { type: 'submit', id: 'join' }, T.join)));
        }
      } else {
        kids.push(h('p', { id: 'you-are', class: 'you' }, T.you_are(mine.number, C.shownName(mine.name))));
        if (!mine.withdrawn_from && view.status !== 'finished') {
          if (!mine.present && view.status === 'registration') {
            kids.push(h('button', { type: 'button', id: 'present', onclick: () => act('present') }, T.present));
          } else if (mine.present && view.status === 'registration') kids.push(h('span', { id: 'is-present', class: 'ok' }, T.is_present));
          kids.push(h('button', { type: 'button', id: 'leave', class: 'secondary', onclick: () => { if (confirm(T.confirm_leave)) act('leave'); } }, T.leave));
        } else if (mine.withdrawn_from) kids.push(h('span', { id: 'left', class: 'muted' }, T.withdrawn));
        const g = myGame();
        if (g) kids.push(h('a', { href: `/partida/${g}`, id: 'my-game', class: 'button' }, T.to_my_game));
      }
    }
    actions.replaceChildren(...kids);
  }
  function myGame() {
    const last = (view.rounds_list || []).find((x) => x.number === view.round);
    if (!last || !view.me) return null;
    const b = last.boards.find((x) => (x.white === view.me || x.black === view.me) && x.game && !x.result);
    return b ? b.game : null;
  }
  async function act(what) {
    try { await api('POST', `/api/tournaments/${encodeURIComponent(id)}/${what}`, {}); C.showError(null); await refresh(); } catch (err) { C.showError(err); }
  }
  async function refresh() {
    try { view = await loadView(id); draw(); } catch (e) { C.showError(e); }
  }
  function showCountdown(m) {
    clearInterval(cdTimer);
    const end = performance.now() + (m.ms || 0);
    const tick = () => {
      const left = Math.max(0, end - performance.now());
      countdown.hidden = left <= 0;
      countdown.textContent = T.countdown(m.round, Math.ceil(left / 1000));
      if (left <= 0) clearInterval(cdTimer);
    };
    tick();
    cdTimer = setInterval(tick, 250);
  }
  draw();
  const fresh = inOrder((v) => { view = v; draw(); });
  if (typeof view.countdown_ms === 'number') showCountdown({ round: (view.round || 0) + 1, ms: view.countdown_ms });
  watch(id, (m) => {
    if (m.t === 'tournament' && m.view) {
      fresh(m.view);
      if (typeof m.view.countdown_ms !== 'number') { clearInterval(cdTimer); countdown.hidden = true; }
    }
    if (m.t === 'countdown') showCountdown(m);
    if (m.t === 'your_game' && m.game) { C.keepSeat(m); location.href = `/partida/${m.game}`; }
  });
}

// ------------------------------------------------------------------ the desk

async function desk(main, me, id) {
  const { h, api } = C;
  const T = tt();
  main.classList.add('tn', 'tn-desk');
  let view;
  try { view = await loadView(id); } catch (e) { main.append(h('p', { class: 'error' }, e.status === 404 ? T.not_found : e.message)); return; }
  const base = `/api/tournaments/${encodeURIComponent(id)}`;
  const head = h('div', {});
  const roundCard = h('section', { id: 'desk-round', class: 'card wide' });
  const playersCard = h('section', { id: 'desk-players', class: 'card wide' });
  const addCard = h('section', { id: 'desk-add', class: 'card' });
  const pairsCard = h('section', { id: 'desk-forbidden', class: 'card' });
  const orgCard = h('section', { id: 'desk-organisers', class: 'card' });
  const printCard = h('section', { id: 'desk-print', class: 'card' });
  const tbCard = h('section', { id: 'desk-tiebreaks', class: 'card wide' });
  const fideCard = h('section', { id: 'desk-fide', class: 'card' });
  main.append(head, fideCard, roundCard, playersCard, tbCard, addCard, pairsCard, orgCard, printCard);
  let shownRound = null;
  // The last result's correction ("Corregido: antes ½-½"), shown under the
  // boards until the next result or round.
  let correction = null;
  const send = async (method, url, body, done) => {
    try {
      const r = await api(method, url, body);
      C.showError(null);
      if (done) done(r);
      await refresh();
      return r;
    } catch (err) { C.showError(err); return null; }
  };
  async function refresh() {
    try { view = await loadView(id); draw(); } catch (e) { C.showError(e); }
  }

  function drawRound() {
    const last = view.round || 0;
    const r = shownRound || last;
    const round = (view.rounds_list || []).find((x) => x.number === r);
    const kids = [h('h2', {}, last ? T.round_n(r) : T.no_rounds)];
    if ((view.rounds_list || []).length > 1) {
      kids.push(h('label', {}, T.round, ' ', h('select', {
        id: 'desk-round-select',
        onchange: (e) => { const n = Number(e.target.value); shownRound = n === last ? null : n; drawRound(); },
      }, view.rounds_list.map((x) => h('option', { value: x.number, selected: x.number === r }, T.round_n(x.number))))));
    }
    if (round) {
      const rows = round.boards.map((b) => h('tr', { 'data-board': b.board, 'data-white': b.white, 'data-black': b.black, 'data-result': b.result || '' },
        h('td', { class: 'num' }, String(b.board)),
        h('td', { class: 'w' }, `${nameOf(view, b.white)} (${b.white})`),
        h('td', { class: 'res' }, h('select', {
          class: 'result', 'aria-label': T.result_of(b.board),
          onchange: (e) => {
            if (!e.target.value) return;
            correction = null;
            send('POST', `${base}/rounds/${r}/boards/${b.board}/result`, { result: e.target.value }, (res) => {
              if (res && res.previous && res.previous !== res.result) correction = T.corrected(res.board, res.previous);
            });
          },
        }, h('option', { value: '' }, '–'), RESULTS.map((x) => h('option', { value: x, selected: b.result === x }, x)),
        h('optgroup', { label: T.unusual_results }, UNUSUAL.map((x) => h('option', { value: x, title: T.unusual_help[x], selected: b.result === x }, x))))),
        h('td', { class: 'b' }, `${nameOf(view, b.black)} (${b.black})`),
        h('td', {}, b.game ? h('a', { href: `/partida/${b.game}` }, T.game) : '')));
      const byes = (round.byes || []).map((y) => h('tr', { class: 'bye', 'data-bye': y.player, 'data-kind': y.kind }, h('td', {}, ''), h('td', { class: 'w' }, `${nameOf(view, y.player)} (${y.player})`),
        h('td', { class: 'res' }, T.bye_kinds[y.kind] || y.kind), h('td', {}, ''), h('td', {}, '')));
      kids.push(table('desk-boards', 'pairings', [T.board, T.white, T.result, T.black, ''], [...rows, ...byes]));
    }
    const pending = round ? round.boards.filter((b) => !b.result).length : 0;
    if (correction) kids.push(h('p', { id: 'result-correction', role: 'status' }, correction));
    kids.push(h('p', { id: 'round-state', class: 'muted' },
      !last ? T.ready_first : (view.round_complete ? T.round_done(last) : T.round_missing(pending))));
    if (view.status !== 'finished' && last < view.rounds) {
      kids.push(h('button', {
        type: 'button', id: 'pair-next', disabled: last > 0 && !view.round_complete,
        onclick: () => send('POST', `${base}/rounds`, {}, () => { shownRound = null; correction = null; }),
      }, T.pair_round(last + 1)));
    }
    roundCard.replaceChildren(...kids);
  }

  function drawPlayers() {
    const rounds = view.rounds;
    const rows = (view.players || []).map((p) => h('tr', { 'data-number': p.number, class: p.withdrawn_from ? 'withdrawn' : '' },
      h('td', { class: 'num' }, String(p.number)), h('td', { class: 'name' }, C.shownName(p.name)),
      h('td', {}, p.club || ''), h('td', {}, p.category || ''), h('td', { class: 'num' }, p.birth_year ? String(p.birth_year) : ''),
      h('td', { class: 'num' }, p.rating ? String(p.rating) : ''), h('td', {}, p.title || ''),
      h('td', { class: 'pts' }, fmtPoints(p.points)),
      h('td', {}, p.withdrawn_from ? T.withdrawn_from(p.withdrawn_from) : (view.mode === 'online' ? (p.present ? T.present_mark : '') : '')),
      h('td', { class: 'acts' }, h('div', { class: 'acts-box' },
        p.withdrawn_from ? '' : h('button', {
          type: 'button', class: 'withdraw secondary',
          onclick: () => { if (confirm(T.confirm_withdraw(C.shownName(p.name)))) send('POST', `${base}/players/${p.number}/withdraw`, {}); },
        }, T.withdraw),
        p.withdrawn_from ? '' : h('span', { class: 'bye-req' },
          h('select', { class: 'bye-round', 'aria-label': T.bye_round }, [...Array(Math.max(0, rounds - (view.round || 0)))].map((_, i) => h('option', { value: (view.round || 0) + i + 1 }, T.round_n((view.round || 0) + i + 1)))),
          h('select', { class: 'bye-kind', 'aria-label': T.bye_kind }, h('option', { value: 'half' }, T.bye_kinds.half), h('option', { value: 'zero' }, T.bye_kinds.zero)),
          h('button', {
            type: 'button', class: 'bye secondary',
            onclick: (e) => {
              const box = e.target.closest('.bye-req');
              const round = Number(box.querySelector('.bye-round').value);
              if (!round) return;
              send('POST', `${base}/players/${p.number}/bye`, { round, kind: box.querySelector('.bye-kind').value });
            },
          }, T.bye)),
        h('button', { type: 'button', class: 'edit secondary', onclick: () => editPlayer(p) }, T.edit)))));
    playersCard.replaceChildren(h('h2', {}, `${T.players} (${(view.players || []).length})`),
      table('desk-players-table', '', [T.number, T.name, T.club, T.category, T.birth_year, T.rating, T.title, T.points, '', ''], rows));
  }

  function playerFields(prefix, p = {}) {
    return [
      h('label', {}, T.name, ' ', h('input', { id: `${prefix}-name`, required: true, maxlength: 80, value: p.name || '' })),
      h('label', {}, T.club, ' ', h('input', { id: `${prefix}-club`, maxlength: 80, value: p.club || '', list: 'clubs' })),
      h('label', {}, T.category, ' ', h('input', { id: `${prefix}-category`, maxlength: 20, size: 9, value: p.category || '', list: 'categories' })),
      h('label', {}, T.birth_year, ' ', h('input', { id: `${prefix}-birth`, type: 'number', min: 1900, max: 2100, value: p.birth_year || '' })),
      h('label', {}, T.rating, ' ', h('input', { id: `${prefix}-rating`, type: 'number', min: 0, max: 3500, value: p.rating || '' })),
      h('label', {}, T.fide_id, ' ', h('input', { id: `${prefix}-fide`, inputmode: 'numeric', maxlength: 12, size: 10, value: p.fide_id || '' })),
      h('label', {}, T.title, ' ', h('select', { id: `${prefix}-title` }, ['', 'GM', 'IM', 'FM', 'CM', 'WGM', 'WIM', 'WFM', 'WCM'].map((x) => h('option', { value: x, selected: (p.title || '') === x }, x || '—')))),
    ];
  }
  function playerBody(prefix) {
    const v = (k) => document.getElementById(`${prefix}-${k}`).value.trim();
    const body = { name: v('name') };
    if (v('club')) body.club = v('club');
    if (v('category')) body.category = v('category');
    if (v('birth')) body.birth_year = Number(v('birth'));
    if (v('rating')) body.rating = Number(v('rating'));
    if (v('fide')) body.fide_id = Number(v('fide'));
    if (v('title')) body.title = v('title');
    return body;
  }
  function editPlayer(p) {
    const dlg = h('form', {
      id: 'edit-form', class: 'edit-form',
      onsubmit: async (e) => {
        e.preventDefault();
        await send('POST', `${base}/players/${p.number}`, playerBody('edit'));
      },
    }, h('h3', {}, T.edit_player(p.number)), ...playerFields('edit', p),
    h('button', { type: 'submit', id: 'edit-save' }, T.save), h('button', { type: 'button', class: 'secondary', onclick: () => dlg.remove() }, C.t.cancel || '✕'));
    const old = document.getElementById('edit-form');
    if (old) old.remove();
    playersCard.append(dlg);
    document.getElementById('edit-name').focus();
  }

  function drawAdd() {
    if (addCard.childElementCount) return; // keep what is being typed
    const clubs = h('datalist', { id: 'clubs' });
    const cats = h('datalist', { id: 'categories' });
    addCard.append(clubs, cats, h('h2', {}, T.add_players),
      h('form', {
        id: 'add-player',
        onsubmit: async (e) => {
          e.preventDefault();
          // The player's own fields are emptied at once (club and category
          // stay for the next one), so the next player can be typed while
          // this one is stored: the table may show this one (pushed by the
          // tournament's socket) before the answer comes, and the answer
          // must not wipe what is being typed by then. Refused, what was
          // typed comes back, unless a new player is being typed.
          const body = playerBody('p');
          const own = ['name', 'fide', 'rating', 'birth'].map((k) => document.getElementById(`p-${k}`));
          const typed = own.map((el) => el.value);
          for (const el of own) el.value = '';
          document.getElementById('p-name').focus();
          const r = await send('POST', `${base}/players`, body);
          if (r) {
            C.$('#added').textContent = T.added_one(r.number);
          } else if (own.every((el) => el.value === '')) {
            own.forEach((el, i) => { el.value = typed[i]; });
          }
        },
      }, ...playerFields('p'), h('button', { type: 'submit', id: 'add-go' }, T.add)),
      h('p', { id: 'added', class: 'muted', role: 'status' }),
      h('details', { id: 'paste' }, h('summary', {}, T.paste_title),
        h('form', {
          id: 'paste-form',
          onsubmit: async (e) => {
            e.preventDefault();
            const text = document.getElementById('paste-text').value;
            const format = document.getElementById('paste-format').value;
            const r = await send('POST', `${base}/players/import`, { format, text });
            if (r) { document.getElementById('paste-text').value = ''; C.$('#added').textContent = T.added_many(r.added); }
          },
        }, h('label', {}, T.format, ' ', h('select', { id: 'paste-format' }, h('option', { value: 'list' }, T.format_list), h('option', { value: 'csv' }, 'CSV'), h('option', { value: 'trf' }, 'TRF'))),
        h('label', { class: 'full' }, T.paste_help, ' ', h('textarea', { id: 'paste-text', rows: 6, cols: 40 })),
        h('label', {}, T.or_file, ' ', h('input', {
          type: 'file', id: 'paste-file', accept: '.csv,.txt,.trf,text/plain,text/csv',
          onchange: async (e) => {
            const f = e.target.files[0];
            if (!f) return;
            document.getElementById('paste-text').value = await fileText(f);
            if (/\.csv$/i.test(f.name)) document.getElementById('paste-format').value = 'csv';
            if (/\.trf$/i.test(f.name)) document.getElementById('paste-format').value = 'trf';
          },
        })),
        h('button', { type: 'submit', id: 'paste-go' }, T.import))));
  }
  function fillLists() {
    const uniq = (xs) => [...new Set(xs.filter(Boolean))];
    const clubs = document.getElementById('clubs');
    const cats = document.getElementById('categories');
    if (clubs) clubs.replaceChildren(...uniq((view.players || []).map((p) => p.club)).map((x) => h('option', { value: x })));
    if (cats) cats.replaceChildren(...uniq([...CATEGORIES, ...(view.players || []).map((p) => p.category)]).map((x) => h('option', { value: x })));
  }

  function drawForbidden() {
    const active = (view.players || []).filter((p) => !p.withdrawn_from);
    // A redraw (another change arrived) keeps what the organiser ticked.
    const ticked = new Set([...pairsCard.querySelectorAll('input.forbid:checked')].map((x) => Number(x.value)));
    pairsCard.replaceChildren(h('h2', {}, T.forbidden_title), h('p', { class: 'help' }, T.forbidden_help),
      h('form', {
        id: 'forbid-form',
        onsubmit: (e) => {
          e.preventDefault();
          const players = [...pairsCard.querySelectorAll('input.forbid:checked')].map((x) => Number(x.value));
          if (players.length < 2) { C.showError(T.forbidden_two); return; }
          send('POST', `${base}/forbidden`, { players });
        },
      }, h('div', { class: 'checks' }, active.map((p) => h('label', { class: 'row' }, h('input', { type: 'checkbox', class: 'forbid', value: p.number, checked: ticked.has(p.number) }), ' ', `${p.number}. ${C.shownName(p.name)}`))),
      h('button', { type: 'submit', id: 'forbid-go' }, T.forbid)));
  }

  function drawOrganisers() {
    if (orgCard.childElementCount) return;
    orgCard.append(h('h2', {}, T.organisers), h('p', { class: 'help' }, T.organisers_help),
      h('form', {
        id: 'organiser-form',
        onsubmit: async (e) => {
          e.preventDefault();
          const account = document.getElementById('organiser-account').value.trim();
          if (!account) return;
          const r = await send('POST', `${base}/organisers`, { account });
          if (r !== null) { document.getElementById('organiser-account').value = ''; C.$('#organiser-added').textContent = T.organiser_added(account); }
        },
      }, h('label', {}, T.account, ' ', h('input', { id: 'organiser-account', maxlength: 40, autocomplete: 'off' })), h('button', { type: 'submit', id: 'organiser-go' }, T.add)),
      h('p', { id: 'organiser-added', class: 'muted', role: 'status' }));
  }

  // The paper of the printouts: A4 unless the organiser picks Letter.
  let paper = 'a4';
  function drawPrint() {
    const r = shownRound || view.round || 0;
    const links = [];
    const q = `?paper=${paper}`;
    if (r) {
      links.push(h('li', {}, h('a', { href: `${base}/rounds/${r}/print${q}`, target: '_blank', id: 'print-pairings' }, T.print_pairings(r))));
      links.push(h('li', {}, h('a', { href: `${base}/rounds/${r}/pdf${q}`, target: '_blank', id: 'pdf-pairings' }, T.pdf_pairings(r))));
    }
    links.push(h('li', {}, h('a', { href: `${base}/print/standings${q}`, target: '_blank', id: 'print-standings' }, T.print_standings)));
    links.push(h('li', {}, h('a', { href: `${base}/pdf/standings${q}`, target: '_blank', id: 'pdf-standings' }, T.pdf_standings)));
    for (const page of ['crosstable', 'categories', 'teams']) {
      links.push(h('li', {}, h('a', { href: `${base}/print/${page}${q}`, target: '_blank', id: `print-${page}` }, T.print_pages[page])));
    }
    links.push(h('li', {}, h('a', { href: `${base}/trf`, download: `${view.id}.trf`, id: 'export-trf' }, T.export_trf)));
    if (view.mode === 'online') links.push(h('li', {}, h('a', { href: `${base}/pgn`, download: `${view.id}.pgn`, id: 'export-pgn' }, T.export_pgn)));
    const choose = h('label', {}, T.paper, ' ', h('select', {
      id: 'print-paper',
      onchange: (e) => { paper = e.target.value; drawPrint(); },
    }, h('option', { value: 'a4', selected: paper === 'a4' }, T.paper_a4), h('option', { value: 'letter', selected: paper === 'letter' }, T.paper_letter)));
    printCard.replaceChildren(h('h2', {}, T.printouts), h('p', {}, choose), h('ul', { class: 'links' }, links));
  }

  function draw() {
    head.replaceChildren(heading(view, 'desk'));
    if (!view.can_edit) {
      for (const c of [fideCard, roundCard, playersCard, tbCard, addCard, pairsCard, orgCard, printCard]) c.hidden = true;
      head.append(h('p', { id: 'not-organiser', class: 'error' }, T.not_organiser));
      return;
    }
    drawRound();
    drawPlayers();
    drawAdd();
    fillLists();
    drawForbidden();
    drawOrganisers();
    drawPrint();
    drawTiebreaks();
    drawFide();
    document.body.dataset.tnRound = String(view.round || 0);
    document.body.dataset.tnComplete = view.round_complete ? '1' : '0';
  }

  // FIDE mode (issue 58): the mark, and leaving it — a first confirmation
  // (a checkbox: it cannot be undone), then a second (the tournament's
  // name typed again); the server refuses anything less
  // (POST /fide/leave, escaque_torneo::fide).
  const L = (es, en) => (C.LANG === 'en' ? en : es);
  let fideStep = 0; // 0 the button, 1 the first confirmation, 2 the second
  async function drawFide() {
    let st;
    try { st = await api('GET', `${base}/fide`); } catch (e) { C.showError(e); return; }
    const mark = h('p', { id: 'fide-mark', class: st.on ? 'fide-on' : 'fide-off' }, C.LANG === 'en' ? st.mark_en : st.mark_es);
    const parts = [h('h2', {}, L('Modo FIDE', 'FIDE mode')), mark];
    if (st.numbers_frozen) parts.push(h('p', { class: 'help' }, L('Números de emparejamiento congelados (ronda 4 emparejada).', 'Pairing numbers frozen (round 4 paired).')));
    if (st.on && fideStep === 0) {
      parts.push(h('button', { type: 'button', id: 'fide-leave', class: 'secondary', onclick: () => { fideStep = 1; drawFide(); } }, L('Salir del modo FIDE…', 'Leave FIDE mode…')));
    } else if (st.on && fideStep === 1) {
      const sure = h('input', { type: 'checkbox', id: 'fide-sure' });
      const next = h('button', { type: 'button', id: 'fide-leave-1', disabled: true, onclick: () => { fideStep = 2; drawFide(); } }, L('Continuar', 'Continue'));
      sure.addEventListener('change', () => { next.disabled = !sure.checked; });
      parts.push(h('p', { class: 'error', role: 'alert' }, L('Fuera del modo FIDE el torneo no sigue las reglas de la FIDE para programas de emparejamiento. No se puede deshacer y quedará escrito en el TRF.', 'Out of FIDE mode the tournament no longer follows FIDE\'s rules for pairing programs. It cannot be undone and is written in the TRF.')),
        h('p', {}, h('label', {}, sure, ' ', L('Entiendo que no se puede deshacer', 'I understand it cannot be undone'))),
        h('p', {}, next, ' ', h('button', { type: 'button', class: 'secondary', id: 'fide-cancel', onclick: () => { fideStep = 0; drawFide(); } }, L('Cancelar', 'Cancel'))));
    } else if (st.on && fideStep === 2) {
      const name = h('input', { type: 'text', id: 'fide-leave-name', autocomplete: 'off', 'aria-label': L('Nombre del torneo', 'Tournament name') });
      const go = h('button', { type: 'button', id: 'fide-leave-2', class: 'danger', onclick: () => send('POST', `${base}/fide/leave`, { confirm: true, name: name.value }, () => { fideStep = 0; }) }, L('Salir definitivamente', 'Leave for good'));
      parts.push(h('p', {}, L('Segunda confirmación: escriba el nombre del torneo.', 'Second confirmation: type the tournament\'s name.')),
        h('p', {}, name, ' ', go, ' ', h('button', { type: 'button', class: 'secondary', id: 'fide-cancel', onclick: () => { fideStep = 0; drawFide(); } }, L('Cancelar', 'Cancel'))));
    }
    if (st.log.length) parts.push(h('ul', { id: 'fide-log', class: 'help' }, st.log.map((l) => h('li', {}, l))));
    fideCard.replaceChildren(...parts, manualBox);
    drawManual();
  }

  // Manual pairing (issue 58; POST /manual-pairing, escaque_torneo::fide):
  // «Emparejar a mano» starts it with the engine's pairing of the next
  // round; the organiser picks the players of each board and the bye; every
  // change is checked by the server (warnings in Spanish: repeat,
  // prohibited pair, ineligible bye, three colours in a row, colour
  // imbalance); «Terminar y guardar» stays disabled while there are
  // warnings not accepted (and the server refuses them too); saving writes
  // the round and the `### MPA @ Round n` line.
  const manualBox = h('div', { id: 'manual-box' });
  let manualAsked = 0; // the checks asked for
  let manualSaved = ''; // what the last save said
  let manual = null; // {round, boards: [[w, b]], bye, hasBye, players, engine, answer, error, accepted, busy}
  const pairsText = (p) => (p ? [...p.games.map(([w, b]) => `${w}-${b}`), ...(p.bye ? [`${p.bye}-${L('descanso', 'bye')}`] : [])].join('  ') : L('ninguno', 'none'));
  function canPairNext() {
    const last = view.round || 0;
    return view.mode !== 'online' && view.status !== 'finished' && last < view.rounds && (last === 0 || view.round_complete);
  }
  async function startManual() {
    manualSaved = '';
    let a;
    try { a = await api('POST', `${base}/manual-pairing`, { games: [] }); } catch (e) { C.showError(e); return; }
    C.showError(null);
    let players;
    let boards;
    let bye = null;
    if (a.engine) {
      boards = a.engine.games.map((g) => [g[0], g[1]]);
      bye = a.engine.bye;
      players = [...a.engine.games.flat(), ...(bye ? [bye] : [])].sort((x, y) => x - y);
    } else {
      players = (view.players || []).filter((p) => !p.withdrawn_from).map((p) => p.number);
      boards = Array.from({ length: Math.floor(players.length / 2) }, () => [0, 0]);
    }
    manual = { round: a.round, boards, bye, hasBye: players.length % 2 === 1, players, engine: a.engine, answer: a, error: null, accepted: false, busy: false };
    fideCard.classList.add('wide');
    drawManual();
  }
  function current() {
    return { games: manual.boards.map((b) => [b[0], b[1]]), bye: manual.hasBye ? (manual.bye || null) : null };
  }
  async function checkManual() {
    const body = current();
    manual.accepted = false;
    if (body.games.some((g) => !g[0] || !g[1]) || (manual.hasBye && !body.bye)) {
      manual.answer = null;
      manualAsked += 1;
      manual.error = L('Falta elegir algún jugador.', 'A player is still to be chosen.');
      drawManual();
      return;
    }
    // Only the answer to the last change counts (an earlier one may come later).
    const asked = ++manualAsked;
    const m = manual;
    try {
      const a = await api('POST', `${base}/manual-pairing`, { ...body, save: false });
      if (asked !== manualAsked || manual !== m) return;
      m.answer = a;
      m.error = null;
    } catch (e) {
      if (asked !== manualAsked || manual !== m) return;
      m.answer = null;
      m.error = e.message;
    }
    drawManual();
  }
  async function saveManual() {
    manual.busy = true;
    drawManual();
    try {
      const a = await api('POST', `${base}/manual-pairing`, { ...current(), save: true, accept_warnings: manual.accepted });
      manual = null;
      manualSaved = L(`Ronda ${a.round} guardada: ${a.mpa}`, `Round ${a.round} saved: ${a.mpa}`);
      fideCard.classList.remove('wide');
      C.showError(null);
      await refresh();
    } catch (e) {
      manual.busy = false;
      manual.error = e.message;
      drawManual();
    }
  }
  function drawManual() {
    if (manual && !canPairNext()) { manual = null; fideCard.classList.remove('wide'); }
    if (!manual) {
      manualBox.replaceChildren(...(canPairNext() ? [
        h('p', {}, h('button', { type: 'button', id: 'manual-start', class: 'secondary', onclick: startManual }, L(`Emparejar a mano la ronda ${(view.round || 0) + 1}…`, `Pair round ${(view.round || 0) + 1} by hand…`))),
      ] : []), h('p', { id: 'manual-saved', class: 'muted', role: 'status' }, manualSaved));
      return;
    }
    const m = manual;
    const who = (n) => `${n}. ${nameOf(view, n)}`;
    const pick = (cls, value, label, onchange) => h('select', { class: cls, id: cls === 'manual-bye' ? 'manual-bye' : null, 'aria-label': label, onchange },
      h('option', { value: '' }, '–'), m.players.map((n) => h('option', { value: n, selected: n === value }, who(n))));
    const rows = m.boards.map((b, i) => h('tr', { 'data-board': i + 1 },
      h('td', { class: 'num' }, String(i + 1)),
      h('td', {}, pick('manual-white', b[0], L(`Blancas, mesa ${i + 1}`, `White, board ${i + 1}`), (e) => { b[0] = Number(e.target.value) || 0; checkManual(); })),
      h('td', {}, pick('manual-black', b[1], L(`Negras, mesa ${i + 1}`, `Black, board ${i + 1}`), (e) => { b[1] = Number(e.target.value) || 0; checkManual(); }))));
    const parts = [
      h('h3', {}, L(`Emparejamiento manual de la ronda ${m.round}`, `Manual pairing of round ${m.round}`)),
      h('p', { id: 'manual-engine', class: 'help' }, L('Emparejamiento del programa: ', 'The engine\'s pairing: '), pairsText(m.engine)),
      table('manual-boards', 'pairings', [L('Mesa', 'Board'), L('Blancas', 'White'), L('Negras', 'Black')], rows),
    ];
    if (m.hasBye) {
      parts.push(h('p', {}, h('label', {}, L('Descanso (un punto): ', 'Bye (one point): '), pick('manual-bye', m.bye, L('Descanso', 'Bye'), (e) => { m.bye = Number(e.target.value) || null; checkManual(); }))));
    }
    const a = m.answer;
    if (a) parts.push(h('p', { id: 'manual-differ', class: 'muted' }, a.differing === 0 ? L('Igual que el emparejamiento del programa.', 'The same as the engine\'s pairing.') : (a.differing === 1 ? L('1 mesa distinta del programa.', '1 board not the engine\'s.') : L(`${a.differing} mesas distintas del programa.`, `${a.differing} boards not the engine's.`))));
    if (m.error) parts.push(h('p', { id: 'manual-error', class: 'error', role: 'alert' }, m.error));
    const warnings = a ? a.warnings : [];
    if (warnings.length) {
      parts.push(h('div', { id: 'manual-warnings', class: 'error', role: 'alert' },
        h('p', {}, L('Avisos: este emparejamiento no sigue las reglas de la FIDE.', 'Warnings: this pairing does not follow FIDE\'s rules.')),
        h('ul', {}, warnings.map((w) => h('li', { 'data-kind': w.kind }, C.LANG === 'en' ? w.en : w.es)))));
      const box = h('input', { type: 'checkbox', id: 'manual-accept', checked: m.accepted });
      box.addEventListener('change', () => { m.accepted = box.checked; drawManual(); });
      parts.push(h('p', {}, h('label', { class: 'row' }, box, ' ', L('Acepto los avisos (quedarán escritos en el TRF)', 'I accept the warnings (they are written in the TRF)'))));
    }
    const blocked = m.busy || !a || m.error !== null || (warnings.length > 0 && !m.accepted);
    parts.push(h('p', {},
      h('button', { type: 'button', id: 'manual-save', disabled: blocked, onclick: saveManual }, L('Terminar y guardar', 'Finish and save')), ' ',
      h('button', { type: 'button', id: 'manual-cancel', class: 'secondary', onclick: () => { manual = null; fideCard.classList.remove('wide'); drawManual(); } }, L('Cancelar', 'Cancel'))));
    manualBox.replaceChildren(...parts);
  }

  // Tie-breaks (issue 62): the version of FIDE C.07 the standings follow,
  // which the organiser may choose, and how one player's values were made
  // (the server's standings::explain, as `clasificacion --detalle N`).
  let explained = null; // the player whose explanation is open
  let picked = null; // the player chosen in the list (kept across redraws)
  async function drawTiebreaks() {
    let info;
    try { info = await api('GET', `${base}/tiebreak-rules`); } catch (e) { C.showError(e); return; }
    const heading = C.LANG === 'en' ? info.heading_en : info.heading_es;
    const rules = h('select', {
      id: 'tb-rules', 'aria-label': T.tb_rules,
      onchange: (e) => send('POST', `${base}/tiebreak-rules`, { version: e.target.value || null }),
    }, h('option', { value: '', selected: !info.chosen }, T.tb_rules_by_date(info.by_date)),
    ...['2024', '2026'].map((v) => h('option', { value: v, selected: info.chosen && info.version === v }, T.tb_rules_version(v))));
    const rows = (view.standings && view.standings.rows) || [];
    const who = h('select', { id: 'tb-player', 'aria-label': T.tb_player, onchange: (e) => { picked = Number(e.target.value); } },
      rows.map((r) => h('option', { value: r.number, selected: r.number === (picked || explained) }, `${r.rank}. ${C.shownName(r.name)} (${r.number})`)));
    const out = h('div', { id: 'tb-explain', 'aria-live': 'polite' });
    const go = h('button', {
      type: 'button', id: 'tb-explain-go', class: 'secondary', disabled: !rows.length,
      onclick: () => { explained = Number(who.value); showExplanation(out); },
    }, T.tb_explain);
    tbCard.replaceChildren(h('h2', {}, T.tb_card), h('p', { id: 'tb-heading' }, heading),
      h('p', {}, h('label', {}, T.tb_rules, ' ', rules)),
      h('p', { class: 'help' }, T.tb_help), h('p', {}, who, ' ', go), out);
    if (explained) showExplanation(out);
  }
  async function showExplanation(out) {
    let e;
    try { e = await api('GET', `${base}/players/${explained}/tiebreaks`); } catch (err) { C.showError(err); return; }
    const n = fmtTb;
    const line = (r) => {
      let what;
      if (r.kind === 'game') what = `${T.tb_results[r.result] || r.result} ${T.tb_against} ${nameOf(view, r.opponent)} (${r.opponent})`;
      else if (r.kind === 'bye') what = T.bye_kinds[r.bye] || r.bye;
      else what = T.tb_absent;
      const c = r.counted;
      let why;
      if (c.as === 'opponent') {
        why = c.rounds_as_draws.length ? T.tb_opponent_draws(c.opponent, n(c.score), c.rounds_as_draws.join(', '), n(c.adjusted)) : T.tb_opponent(c.opponent, n(c.score));
      } else if (c.as === 'dummy') {
        if (c.cap === 'half_the_rounds') why = T.tb_dummy_half(n(c.own), n(c.cap_value), n(c.value));
        else if (c.cap === 'opponent') why = T.tb_dummy_opponent(n(c.own), c.cap_opponent, n(c.cap_value), n(c.value));
        else why = T.tb_dummy(n(c.own));
      } else why = T.tb_nothing;
      const bh = r.buchholz === null ? '—' : n(r.buchholz);
      const sb = r.sonneborn_berger === null ? '—' : n(r.sonneborn_berger);
      return h('li', { 'data-round': r.round }, `${T.round_n(r.round)}: ${what}. BH ${bh}, SB ${sb}${r.voluntary ? `, ${T.tb_voluntary}` : ''}${r.koya ? ', Koya' : ''}. ${why}`);
    };
    const kids = [h('h3', {}, T.tb_title(e.number, C.shownName(e.name), n(e.points), e.after_round)),
      h('p', { class: 'muted' }, C.LANG === 'en' ? e.rules.heading_en : e.rules.heading_es),
      h('ol', { class: 'tb-rounds' }, e.rounds.map(line))];
    if (e.cut_low) kids.push(h('p', {}, T.tb_cut_low(e.cut_low)));
    if (e.cut_high) kids.push(h('p', {}, T.tb_cut_high(e.cut_high)));
    kids.push(h('p', {}, T.tb_koya(n(e.koya_threshold))));
    kids.push(h('p', { id: 'tb-values', class: 'tb-values' }, e.values.map((v) => `${v.acronym} ${v.value === null ? `— (${T.tb_dropped})` : n(v.value)}`).join(' · ')));
    out.replaceChildren(...kids);
  }
  draw();
  const fresh = inOrder((v) => {
    view = v;
    // Keep a half-typed edit form: redraw the players only when it is closed.
    if (document.getElementById('edit-form')) { head.replaceChildren(heading(view, 'desk')); drawRound(); drawPrint(); return; }
    draw();
  });
  watch(id, (m) => {
    if (m.t === 'tournament' && m.view) fresh(m.view);
  });
  void me;
}

// ------------------------------------------------------------------ the grid of boards

async function boards(main, me, id) {
  const { h, api } = C;
  const T = tt();
  main.classList.add('tn', 'tn-boards');
  let view;
  try { view = await loadView(id); } catch (e) { main.append(h('p', { class: 'error' }, e.status === 404 ? T.not_found : e.message)); return; }
  const base = `/api/tournaments/${encodeURIComponent(id)}`;
  const head = h('div', {});
  const grid = h('div', { id: 'grid', class: 'grid' });
  main.append(head, grid);
  const open = new Map(); // game id -> { ws, cg, el }
  let shownRound = 0;
  function closeAll() {
    for (const g of open.values()) { g.closed = true; if (g.ws) g.ws.close(); }
    open.clear();
  }
  function draw() {
    head.replaceChildren(heading(view, 'boards'));
    if (!view.can_edit) { head.append(h('p', { id: 'not-organiser', class: 'error' }, T.not_organiser)); return; }
    const round = (view.rounds_list || []).find((x) => x.number === view.round);
    if (!round) { grid.replaceChildren(h('p', { class: 'muted' }, T.not_paired)); return; }
    if (shownRound !== round.number) { closeAll(); grid.replaceChildren(); shownRound = round.number; }
    for (const b of round.boards) {
      let cell = grid.querySelector(`[data-board="${b.board}"]`);
      if (!cell) { cell = boardCell(round.number, b); grid.append(cell); }
      const res = cell.querySelector('.cell-result');
      res.textContent = b.result ? `${T.result}: ${b.result}` : '';
      cell.classList.toggle('done', !!b.result);
    }
  }
  function boardCell(r, b) {
    const el = h('div', { class: 'board mini-board' });
    const clocks = { white: h('span', { class: 'mini-clock white' }), black: h('span', { class: 'mini-clock black' }) };
    const setResult = h('select', {
      class: 'result', 'aria-label': T.result_of(b.board),
      onchange: async (e) => {
        if (!e.target.value) return;
        try { await api('POST', `${base}/rounds/${r}/boards/${b.board}/result`, { result: e.target.value }); C.showError(null); } catch (err) { C.showError(err); }
      },
    }, h('option', { value: '' }, T.set_result), RESULTS.map((x) => h('option', { value: x }, x)));
    const addTime = (color) => h('button', {
      type: 'button', class: `add-time add-${color} secondary`,
      onclick: async () => {
        try { await api('POST', `${base}/rounds/${r}/boards/${b.board}/time`, { seconds: 60, color }); C.showError(null); } catch (err) { C.showError(err); }
      },
    }, color === 'white' ? T.add_time_white : T.add_time_black);
    const cell = h('article', { class: 'board-cell', 'data-board': b.board, 'data-game': b.game || '' },
      h('p', { class: 'cell-top' }, h('strong', {}, `${T.board} ${b.board}`), ' ', b.game ? h('a', { href: `/partida/${b.game}`, class: 'open' }, T.game) : ''),
      h('p', { class: 'cell-name' }, '● ', nameOf(view, b.black), ' ', clocks.black),
      el,
      h('p', { class: 'cell-name' }, '○ ', nameOf(view, b.white), ' ', clocks.white),
      h('p', { class: 'cell-result' }),
      h('div', { class: 'cell-acts' }, setResult, addTime('white'), addTime('black')));
    const cg = C.Chessground(el, { viewOnly: true, coordinates: false, animation: { enabled: false }, drawable: { enabled: false } });
    if (b.game) follow(b.game, cg, clocks);
    return cell;
  }
  // The clocks run between the server's messages (the server's time stands).
  function showClocks(g, clocks) {
    const c = g.clock;
    if (!c) return;
    const used = c.running ? Math.max(0, performance.now() - c.at - (c.delay_ms || 0)) : 0;
    clocks.white.textContent = C.fmtClock(c.white_ms - (c.running === 'white' ? used : 0));
    clocks.black.textContent = C.fmtClock(c.black_ms - (c.running === 'black' ? used : 0));
    clocks.white.classList.toggle('running', c.running === 'white');
    clocks.black.classList.toggle('running', c.running === 'black');
  }
  setInterval(() => { for (const g of open.values()) if (g.clocks) showClocks(g, g.clocks); }, 250);
  function follow(game, cg, clocks) {
    const g = { ws: null, closed: false, clock: null, clocks };
    open.set(game, g);
    const connect = () => {
      if (g.closed) return;
      g.ws = new WebSocket(wsUrl(`/ws/games/${encodeURIComponent(game)}`));
      g.ws.onmessage = (ev) => {
        let m;
        try { m = JSON.parse(ev.data); } catch { return; }
        if (m.t === 'ping') { g.ws.send(JSON.stringify({ t: 'pong', n: m.n })); return; }
        if (m.t !== 'state' && m.t !== 'event') return;
        if (m.fen) {
          const lm = m.last_move ? [m.last_move.uci.slice(0, 2), m.last_move.uci.slice(2, 4)] : undefined;
          cg.set({ fen: m.fen, lastMove: lm, check: m.in_check ? m.turn : false });
        }
        if (m.clock) {
          g.clock = { ...m.clock, at: performance.now() };
          if (m.status === 'over') g.clock.running = null;
          showClocks(g, clocks);
        }
      };
      g.ws.onclose = () => { if (!g.closed) setTimeout(connect, 1000); };
    };
    connect();
  }
  draw();
  const fresh = inOrder((v) => { view = v; draw(); });
  watch(id, (m) => { if (m.t === 'tournament' && m.view) fresh(m.view); });
  void me;
}

// ------------------------------------------------------------------ entry

/** Shows the tournament page for `path`, if it is one; `ctx` is app.js's helpers. */
export async function route(path, main, me, ctx) {
  C = ctx;
  let m;
  if (path === '/torneos') { await list(main, me); return true; }
  if ((m = path.match(/^\/torneos\/([A-Za-z0-9_-]+)$/))) { await publicPage(main, me, m[1]); return true; }
  if ((m = path.match(/^\/torneos\/([A-Za-z0-9_-]+)\/organizar$/))) { await desk(main, me, m[1]); return true; }
  if ((m = path.match(/^\/torneos\/([A-Za-z0-9_-]+)\/tableros$/))) { await boards(main, me, m[1]); return true; }
  return false;
}
