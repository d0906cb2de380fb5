// escaque's a class's events and progress (issue 26): /clases/{id}/torneo
// (start a class tournament from the roster, and the class's tournaments)
// and /clases/{id}/progreso (every pupil's progress over a period, a table
// the teacher sorts, prints and downloads as CSV). The server makes the
// tournament and counts everything; these pages show and send. Every name
// is put in with textContent (the `h` helper), never as markup.

let C; // the shared helpers from app.js

const P = () => C.t.pg;
// The clocks offered for a class tournament ('' is none).
const CLOCKS = ['5+3', '10+0', '10+5', '15+10', '30+0', ''];

export async function route(path, el, me, helpers) {
  C = helpers;
  const m = path.match(/^\/clases\/([A-Za-z0-9]+)\/(torneo|progreso)$/);
  if (!m) return;
  if (m[2] === 'torneo') await tournamentPage(el, m[1]);
  else await progressPage(el, m[1]);
}

function back(id) {
  return C.h('p', { class: 'no-print' }, C.h('a', { href: `/clases/${encodeURIComponent(id)}`, id: 'class-back' }, `← ${P().back}`));
}

// ------------------------------------------------------------------ tournament

async function tournamentPage(el, id) {
  const { h } = C;
  const T = P();
  pageStyle();
  let data;
  try { data = await C.api('GET', `/api/classes/${encodeURIComponent(id)}/tournaments`); } catch (e) {
    el.append(h('h1', {}, T.tournament_title), back(id));
    C.showError(e);
    return;
  }
  document.title = `${T.tournament_title} · ${data.class.name}`;
  el.append(h('h1', {}, T.tournament_title, ' · ', data.class.name), back(id));
  if (data.role === 'teacher') el.append(tournamentForm(id, data));
  el.append(earlier(data.tournaments));
}

function tournamentForm(id, data) {
  const { h } = C;
  const T = P();
  const pupils = data.pupils || [];
  const box = (p) => h('input', { type: 'checkbox', 'data-pupil': p.name, checked: p.online });
  const boxes = pupils.map(box);
  const list = h('ul', { id: 'class-tournament-pupils', class: 'pg-pupils' },
    pupils.map((p, i) => h('li', { class: p.online ? 'online' : '' },
      h('label', {}, boxes[i], ' ',
        h('span', { class: 'pg-dot', title: p.online ? T.online : T.offline, 'aria-label': p.online ? T.online : T.offline }, p.online ? '●' : '○'), ' ',
        h('strong', {}, p.name), ' ', h('span', { class: 'pg-real' }, p.real_name)))));
  const count = h('span', { id: 'class-tournament-count', 'aria-live': 'polite' });
  const recount = () => { count.textContent = T.chosen(boxes.filter((b) => b.checked).length); };
  list.addEventListener('change', recount);
  const pick = (f) => () => { boxes.forEach((b, i) => { b.checked = f(pupils[i]); }); recount(); };
  const system = h('select', { id: 'class-tournament-system' },
    h('option', { value: 'swiss' }, T.systems.swiss), h('option', { value: 'round_robin' }, T.systems.round_robin));
  const rounds = h('input', { id: 'class-tournament-rounds', type: 'number', min: 1, max: 30, placeholder: T.rounds_auto, size: 6 });
  const roundsLabel = h('label', {}, T.rounds, ' ', rounds);
  system.addEventListener('change', () => { roundsLabel.hidden = system.value !== 'swiss'; });
  const clock = h('select', { id: 'class-tournament-clock' },
    CLOCKS.map((c) => h('option', { value: c, selected: c === '10+0' }, c || T.no_clock)));
  const name = h('input', { id: 'class-tournament-name', maxlength: 120, size: 28, placeholder: T.name_auto });
  const go = h('button', { type: 'submit', id: 'class-tournament-start' }, T.start);
  const form = h('form', {
    id: 'class-tournament-form',
    onsubmit: async (e) => {
      e.preventDefault();
      C.showError(null);
      const chosen = boxes.filter((b) => b.checked).map((b) => b.dataset.pupil);
      if (chosen.length < 2) { C.showError(new Error(T.need_two)); return; }
      const body = { system: system.value, pupils: chosen, time_control: clock.value || null };
      if (name.value.trim()) body.name = name.value.trim();
      if (system.value === 'swiss' && rounds.value) body.rounds = Number(rounds.value);
      go.disabled = true;
      try {
        const r = await C.api('POST', `/api/classes/${encodeURIComponent(id)}/tournaments`, body);
        location.href = r.url;
      } catch (err) { go.disabled = false; C.showError(err); }
    },
  },
  h('label', {}, T.name, ' ', name),
  h('label', {}, T.system, ' ', system),
  roundsLabel,
  h('label', {}, T.clock, ' ', clock),
  h('fieldset', {}, h('legend', {}, T.pupils, ' ', count),
    h('p', { class: 'row' },
      h('button', { type: 'button', id: 'class-tournament-online', onclick: pick((p) => p.online) }, T.select_online), ' ',
      h('button', { type: 'button', id: 'class-tournament-all', onclick: pick(() => true) }, T.select_all), ' ',
      h('button', { type: 'button', id: 'class-tournament-none', onclick: pick(() => false) }, T.select_none)),
    pupils.length ? list : h('p', {}, T.no_pupils)),
  h('p', { class: 'help' }, T.form_help),
  go);
  recount();
  return h('section', { class: 'card', 'aria-labelledby': 'h-pg-new' }, h('h2', { id: 'h-pg-new' }, T.new_tournament), form);
}

function earlier(list) {
  const { h } = C;
  const T = P();
  const body = list.length
    ? h('ul', { id: 'class-tournaments' }, list.map((t) => h('li', { 'data-tournament': t.id },
      h('a', { href: t.url }, t.name), ' — ', T.systems[t.system === 'dutch' ? 'swiss' : t.system] || t.system, ', ',
      T.round_of(t.round, t.rounds), ', ', T.players(t.players), ' · ', T.statuses[t.status] || t.status)))
    : h('p', { id: 'class-tournaments' }, T.none_yet);
  return h('section', { class: 'card', 'aria-labelledby': 'h-pg-list' }, h('h2', { id: 'h-pg-list' }, T.earlier), body);
}

// ------------------------------------------------------------------ progress

// The table's columns: the key of the server's line, how it sorts, how it shows.
const COLUMNS = [
  { key: 'name', text: true },
  { key: 'real_name', text: true },
  { key: 'games' }, { key: 'wins' }, { key: 'draws' }, { key: 'losses' },
  { key: 'time_played_ms', show: (v) => fmtDuration(v) },
  { key: 'rating_before' }, { key: 'rating_after' },
  { key: 'rating_change', show: (v) => (v > 0 ? `+${v}` : String(v)) },
  { key: 'tournaments' },
  { key: 'perf', text: true, show: (v) => (C.t.perfs && C.t.perfs[v]) || v },
  // Aprende a jugar (issue 55): all time, not the period's.
  { key: 'course_stars' }, { key: 'course_solved' },
];

function fmtDuration(ms) {
  const min = Math.round(ms / 60000);
  return `${Math.floor(min / 60)}:${String(min % 60).padStart(2, '0')}`;
}

// The pages' own look; printing hides everything but the table.
function pageStyle() {
  if (document.getElementById('pg-style')) return;
  document.head.append(C.h('style', { id: 'pg-style' },
    '.pg-table-wrap { overflow-x: auto; } .pg-table { border-collapse: collapse; font-size: 0.92em; } '
    + '.pg-table th, .pg-table td { padding: 4px 5px; border-bottom: 1px solid #8884; text-align: left; white-space: nowrap; } .pg-table th { white-space: normal; vertical-align: bottom; } '
    + '.pg-table td.num { text-align: right; font-variant-numeric: tabular-nums; } '
    + '.pg-table thead th button { background: none; border: 0; padding: 0; font: inherit; font-weight: bold; color: inherit; cursor: pointer; } '
    + '.pg-pupils { list-style: none; padding: 0; columns: 16em 2; } .pg-pupils li { padding: 2px 0; break-inside: avoid; } '
    + '.pg-pupils .online .pg-dot { color: #1a8f3a; } .pg-real { opacity: .75; } '
    + '.pg-pupils label { flex-direction: row; align-items: center; gap: .4rem; font-size: 1rem; } '
    + '#class-tournament-form fieldset, #class-tournament-form .help { flex-basis: 100%; } '
    + 'main > .pg-wide { grid-column: 1 / -1; } '
    + '@media print { header.top, #error, #sr-live, .no-print { display: none !important; } '
    + '#progress-table { width: 100%; border-collapse: collapse; font-size: 10pt; } '
    + '#progress-table th, #progress-table td { border: 1px solid #000; padding: 2px 4px; } '
    + '#progress-table th button { all: unset; } body, main { background: #fff; color: #000; } .card { border: 0; box-shadow: none; } }'));
}

async function progressPage(el, id) {
  const { h } = C;
  const T = P();
  pageStyle();
  const title = h('h1', { id: 'progress-title' }, T.title);
  const from = h('input', { id: 'progress-from', type: 'date' });
  const to = h('input', { id: 'progress-to', type: 'date' });
  const csv = h('a', { id: 'progress-csv', class: 'button', download: '' }, T.csv);
  const wrap = h('div', { class: 'pg-table-wrap' });
  const period = h('p', { id: 'progress-period' });
  let lines = [];
  let sort = { key: 'name', dir: 1 };
  const tz = -new Date().getTimezoneOffset();
  const query = (fmt) => {
    const q = new URLSearchParams();
    if (from.value) q.set('from', from.value);
    if (to.value) q.set('to', to.value);
    q.set('tz', String(tz));
    if (fmt) q.set('format', fmt);
    return `/api/classes/${encodeURIComponent(id)}/progress?${q}`;
  };

  function draw() {
    const cmp = (a, b) => {
      const col = COLUMNS.find((c) => c.key === sort.key);
      const x = a[sort.key];
      const y = b[sort.key];
      if (x === null || x === undefined) return (y === null || y === undefined) ? 0 : 1;
      if (y === null || y === undefined) return -1;
      const r = col.text ? String(x).localeCompare(String(y), C.LANG) : x - y;
      return r * sort.dir || a.name.localeCompare(b.name);
    };
    const sorted = [...lines].sort(cmp);
    const head = h('tr', {}, COLUMNS.map((c) => {
      const active = sort.key === c.key;
      return h('th', {
        scope: 'col',
        'data-sort': c.key,
        'aria-sort': active ? (sort.dir > 0 ? 'ascending' : 'descending') : 'none',
        onclick: () => {
          // Numbers sort high first, names A to Z; a second click turns it.
          sort = active ? { key: c.key, dir: -sort.dir } : { key: c.key, dir: c.text ? 1 : -1 };
          draw();
        },
      }, h('button', { type: 'button' }, T.cols[c.key], active ? (sort.dir > 0 ? ' ▲' : ' ▼') : ''));
    }));
    const rows = sorted.map((l) => h('tr', { 'data-pupil': l.name }, COLUMNS.map((c) => {
      const v = l[c.key];
      const shown = v === null || v === undefined ? '—' : (c.show ? c.show(v) : String(v));
      return h(c.key === 'name' ? 'th' : 'td', c.key === 'name' ? { scope: 'row' } : { class: c.text ? '' : 'num' }, shown);
    })));
    const total = (k) => lines.reduce((s, l) => s + (l[k] || 0), 0);
    const foot = h('tr', { class: 'pg-total' }, h('th', { scope: 'row' }, T.total), h('td', {}, ''),
      ['games', 'wins', 'draws', 'losses'].map((k) => h('td', { class: 'num' }, String(total(k)))),
      h('td', { class: 'num' }, fmtDuration(total('time_played_ms'))), h('td', { colspan: 7 }, ''));
    wrap.replaceChildren(lines.length
      ? h('table', { id: 'progress-table', class: 'pg-table' }, h('thead', {}, head), h('tbody', {}, rows), h('tfoot', {}, foot))
      : h('p', { id: 'progress-table' }, T.no_pupils));
  }

  async function load() {
    C.showError(null);
    try {
      const r = await C.api('GET', query());
      lines = r.pupils;
      from.value = r.from;
      to.value = r.to;
      title.textContent = `${T.title} · ${r.class.name}`;
      document.title = title.textContent;
      period.textContent = T.period(r.from, r.to);
      csv.href = query('csv');
      draw();
    } catch (e) { C.showError(e); }
  }

  const form = h('form', {
    id: 'progress-form', class: 'no-print row pg-wide',
    onsubmit: (e) => { e.preventDefault(); load(); },
  },
  h('label', {}, T.from, ' ', from), ' ',
  h('label', {}, T.to, ' ', to), ' ',
  h('button', { type: 'submit', id: 'progress-show' }, T.show), ' ',
  h('button', { type: 'button', id: 'progress-print', onclick: () => window.print() }, T.print), ' ',
  csv);
  el.append(title, back(id), form,
    h('section', { class: 'card pg-wide', 'aria-labelledby': 'progress-title' }, period, wrap,
      h('p', { class: 'help no-print' }, T.help)));
  await load();
}
