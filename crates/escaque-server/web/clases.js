// escaque's class pages (issue 26): /clases (my classes, and the form to
// create one), /clases/{id} (the teacher's class page, or the pupil's),
// /clase/{id}/entrar (a pupil logs in by picking its name and typing the
// class code). Everything comes from /api/classes/…; every name is put in
// with textContent (the `h` helper), never as markup.

let C; // the shared helpers from app.js: { h, api, t, LANG, showError, shownName, Chessground, fmtClock, $, keepSeat, playerLink }

const T = () => C.t.cl;
const h = (...a) => C.h(...a);
const enc = encodeURIComponent;

/** The styles of these pages (kept here, beside the markup they style). */
function addStyle() {
  if (document.getElementById('cl-style')) return;
  const css = `
main.cl { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 24rem), 1fr)); gap: 1rem; align-items: start; max-width: 1400px; }
main.cl > .wide { grid-column: 1 / -1; }
main.cl h1 { margin: 0.2rem 0; overflow-wrap: anywhere; }
main.cl .card h2 { font-size: 1.1rem; }
main.cl .card p { overflow-wrap: anywhere; }
main.cl #pupil-passwords-box:empty { display: none; }
main.cl textarea { font: inherit; width: 100%; box-sizing: border-box; color: var(--fg); background: var(--bg); border: 1px solid var(--line); border-radius: 6px; }
main.cl form, main.cl .row { display: flex; flex-wrap: wrap; gap: 0.5rem 0.8rem; align-items: end; }
main.cl label.full { width: 100%; }
main.cl label { max-width: 100%; }
main.cl select { max-width: 100%; }
.cl-links { display: flex; flex-wrap: wrap; gap: 0.4rem 1.2rem; }
.cl-code { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 2rem; font-weight: 700; letter-spacing: 0.2em; }
.cl-scroll { overflow-x: auto; max-width: 100%; }
table.cl-table { border-collapse: collapse; width: 100%; }
table.cl-table th, table.cl-table td { padding: 0.3rem 0.5rem; border-bottom: 1px solid var(--line); text-align: left; vertical-align: middle; }
table.cl-table th { font-size: 0.9em; color: var(--muted); font-weight: 600; }
table.cl-table td.acts { display: flex; flex-wrap: wrap; gap: 0.3rem; }
table.cl-table td.acts button, table.cl-table td.acts select { padding: 0.2rem 0.4rem; font-size: 0.85em; }
table.cl-table tr.archived td { color: var(--muted); }
table.cl-table .pw { font-family: ui-monospace, "DejaVu Sans Mono", monospace; }
.dot { display: inline-block; width: 0.7rem; height: 0.7rem; border-radius: 50%; background: var(--line); vertical-align: middle; }
tr.online .dot, li.online .dot { background: var(--ok, #2a2); }
.cl-news { list-style: none; padding: 0; margin: 0; }
.cl-news li { border-bottom: 1px solid var(--line); padding: 0.4rem 0; display: flex; gap: 0.5rem; justify-content: space-between; align-items: start; }
.cl-news li p { margin: 0; white-space: pre-wrap; overflow-wrap: anywhere; }
.cl-news .hw { font-weight: 700; color: var(--accent); }
.cl-list { list-style: none; padding: 0; margin: 0; }
.cl-list li { padding: 0.25rem 0; overflow-wrap: anywhere; }
.cl-pupils { display: grid; grid-template-columns: repeat(auto-fill, minmax(14rem, 1fr)); gap: 0.6rem; }
.cl-pupils button { font-size: 1.15rem; padding: 1rem 0.5rem; overflow-wrap: break-word; }
.cl-pupils button.on { outline: 4px solid var(--accent); }
#login-code { font-size: 1.8rem; letter-spacing: 0.2em; text-transform: uppercase; width: 10ch; }
#login-go { font-size: 1.3rem; padding: 0.6rem 1.4rem; }
.cl-note { background: var(--card); border: 2px solid var(--accent); border-radius: 8px; padding: 0.4rem 0.8rem; }
@media print { header.top, .cl .no-print, #error { display: none !important; } }
`;
  document.head.append(h('style', { id: 'cl-style' }, css));
}

export async function route(path, el, me, helpers) {
  C = helpers;
  addStyle();
  document.title = `${T().title} · escaque`;
  el.classList.add('cl');
  let m;
  if (path === '/clases') await list(el, me);
  else if ((m = path.match(/^\/clase\/([A-Za-z0-9]+)\/entrar$/))) await loginPage(el, m[1]);
  else if ((m = path.match(/^\/clases\/([A-Za-z0-9]+)$/))) await classPage(el, me, m[1]);
  else el.append(h('p', { class: 'error' }, T().not_found));
}

function card(title, ...kids) {
  return h('section', { class: 'card' }, h('h2', {}, title), ...kids);
}

function errorText(e) {
  return e && e.message ? e.message : String(e);
}

/** A short status line beside a form: an error or a confirmation. */
function note() {
  const p = h('p', { class: 'muted', role: 'status' });
  p.ok = (text) => { p.className = 'muted'; p.textContent = text; };
  p.err = (e) => { p.className = 'error'; p.textContent = `${C.t.error}: ${errorText(e)}`; };
  return p;
}

function dateText(ms) {
  return new Date(ms).toLocaleString(C.LANG, { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' });
}

/** `your_game` on the lobby's socket takes a pupil to a game its teacher started. */
function followGames() {
  let delay = 1000;
  const open = () => {
    const ws = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws/lobby`);
    ws.onopen = () => { delay = 1000; document.body.dataset.lobby = '1'; };
    ws.onmessage = (ev) => {
      let m;
      try { m = JSON.parse(ev.data); } catch { return; }
      if (m.t === 'ping') { try { ws.send(JSON.stringify({ t: 'pong', n: m.n })); } catch { /* closing */ } return; }
      if (m.t === 'your_game' && m.game) { C.keepSeat(m); location.href = `/partida/${m.game}`; }
    };
    ws.onclose = () => { document.body.dataset.lobby = '0'; setTimeout(open, delay); delay = Math.min(delay * 2, 10000); };
  };
  open();
}

// ------------------------------------------------------------------ /clases

async function list(el, me) {
  if (me && me.managed && me.class) { location.replace(`/clases/${enc(me.class)}`); return; }
  el.append(h('div', { class: 'wide' }, h('h1', {}, T().my_classes)));
  let data;
  try { data = await C.api('GET', '/api/classes'); } catch (e) { C.showError(e); return; }
  const rows = data.classes || [];
  const box = card(T().my_classes);
  if (!rows.length) box.append(h('p', { id: 'no-classes', class: 'muted' }, data.may_teach ? T().none_yet : T().not_teacher));
  else {
    box.append(h('ul', { id: 'class-list', class: 'cl-list' }, rows.map((c) => h('li', { 'data-class': c.id },
      h('a', { href: `/clases/${enc(c.id)}` }, c.name), ' — ', T().pupils_n(c.pupils),
      c.archived ? h('span', { class: 'muted' }, ` (${T().archived})`) : ''))));
  }
  el.append(box);
  if (!data.may_teach) {
    if (!me || !me.account) el.append(card(T().teachers_title, h('p', {}, T().login_first)));
    return;
  }
  const msg = note();
  const name = h('input', { id: 'class-name', required: true, maxlength: 80, autocomplete: 'off' });
  const desc = h('textarea', { id: 'class-description', rows: 3, maxlength: 2000 });
  const form = h('form', {
    id: 'class-form',
    onsubmit: async (e) => {
      e.preventDefault();
      try {
        const made = await C.api('POST', '/api/classes', { name: name.value, description: desc.value });
        location.href = `/clases/${enc(made.id)}`;
      } catch (err) { msg.err(err); }
    },
  },
  h('label', { class: 'full' }, T().class_name, name),
  h('label', { class: 'full' }, T().description, desc),
  h('button', { id: 'class-create', type: 'submit' }, T().create));
  el.append(card(T().new_class, form, msg));
}

// ------------------------------------------------------------------ /clase/{id}/entrar

async function loginPage(el, id) {
  let data;
  try { data = await C.api('GET', `/api/classes/${enc(id)}/login`); } catch (e) {
    el.append(h('p', { class: 'error wide' }, T().not_found));
    return;
  }
  const wanted = new URLSearchParams(location.search).get('alumno');
  let picked = null;
  const msg = note();
  const code = h('input', { id: 'login-code', autocomplete: 'off', autocapitalize: 'characters', spellcheck: 'false', maxlength: 12, 'aria-label': T().code });
  const go = h('button', { id: 'login-go', type: 'submit', disabled: true }, T().enter);
  const who = h('p', { id: 'login-who', class: 'muted' }, T().pick_name);
  const buttons = (data.pupils || []).map((n) => h('button', {
    type: 'button', 'data-pupil': n, 'aria-pressed': 'false',
    onclick: () => pick(n),
  }, n));
  function pick(n) {
    picked = n;
    for (const b of buttons) {
      const on = b.dataset.pupil === n;
      b.classList.toggle('on', on);
      b.setAttribute('aria-pressed', on ? 'true' : 'false');
    }
    who.textContent = T().you_are(n);
    go.disabled = false;
    code.focus();
  }
  const form = h('form', {
    id: 'login-form',
    onsubmit: async (e) => {
      e.preventDefault();
      if (!picked) return;
      go.disabled = true;
      try {
        await C.api('POST', `/api/classes/${enc(id)}/login`, { name: picked, code: code.value });
        location.href = `/clases/${enc(id)}`;
      } catch (err) {
        msg.err(err.status === 401 ? T().wrong_code : err);
        go.disabled = false;
      }
    },
  }, h('label', {}, T().code, code), go);
  el.append(h('div', { class: 'wide' }, h('h1', {}, data.name), h('p', {}, T().login_help)),
    h('section', { class: 'card wide' }, h('h2', {}, T().who_are_you), h('div', { id: 'login-pupils', class: 'cl-pupils' }, buttons)),
    h('section', { class: 'card wide' }, who, form, msg));
  if (wanted) {
    const match = (data.pupils || []).find((n) => n.toLowerCase() === wanted.toLowerCase());
    if (match) pick(match);
  }
}

// ------------------------------------------------------------------ /clases/{id}

async function classPage(el, me, id) {
  let view;
  try { view = await C.api('GET', `/api/classes/${enc(id)}`); } catch (e) {
    el.append(h('div', { class: 'wide' }, h('p', { class: 'error' }, e.status === 404 ? T().not_found : errorText(e)),
      me && me.account ? '' : h('p', {}, T().login_first)));
    return;
  }
  if (view.role === 'teacher') await teacherPage(el, id, view);
  else pupilPage(el, id, view, me);
}

function board(view, teacher, reload) {
  const items = view.news || [];
  if (!items.length) return h('p', { class: 'muted', id: 'news-empty' }, T().no_news);
  return h('ul', { id: 'news', class: 'cl-news' }, items.map((n) => h('li', { 'data-news': n.id },
    h('div', {},
      n.homework ? h('span', { class: 'hw' }, `${T().homework}: `) : '',
      h('p', {}, n.text),
      h('small', { class: 'muted' }, `${n.author} · ${dateText(n.at_ms)}`)),
    teacher ? h('button', {
      type: 'button', class: 'secondary', 'aria-label': T().delete_news,
      onclick: async () => { try { await C.api('DELETE', `/api/classes/${enc(view.id)}/news/${enc(n.id)}`); reload(); } catch (e) { C.showError(e); } },
    }, T().delete) : '')));
}

function gamesList(view) {
  const games = view.games || [];
  if (!games.length) return h('p', { class: 'muted', id: 'class-games-empty' }, T().no_games);
  return h('ul', { id: 'class-games', class: 'cl-list' }, games.map((g) => h('li', { 'data-game': g.game },
    h('a', { href: g.status === 'over' ? `/mis-partidas/${enc(g.game)}` : `/partida/${enc(g.game)}` }, `${g.white} – ${g.black}`),
    ' ', h('span', { class: 'muted' }, g.status === 'over' ? (g.result || '') : T().in_play))));
}

function pupilPage(el, id, view, me) {
  followGames();
  const boardBox = h('div', {});
  const mates = h('ul', { id: 'classmates', class: 'cl-list' });
  const mine = h('p', { id: 'my-game' });
  const render = (v) => {
    boardBox.replaceChildren(board(v, false, () => {}));
    mates.replaceChildren(...(v.pupils || []).filter((p) => !me || p.name !== me.name).map((p) => h('li', { class: p.online ? 'online' : '', 'data-pupil': p.name },
      h('span', { class: 'dot', 'aria-hidden': 'true' }), ' ', p.name, p.online ? h('span', { class: 'muted' }, ` (${T().online})`) : '')));
    const self = (v.pupils || []).find((p) => me && p.name === me.name);
    mine.replaceChildren(self && self.playing ? h('a', { href: `/partida/${enc(self.playing)}`, id: 'my-game-link' }, T().your_game) : '');
  };
  el.append(h('div', { class: 'wide' }, h('h1', { id: 'class-title' }, view.name),
    view.description ? h('p', {}, view.description) : '',
    h('p', {}, `${T().teachers}: `, (view.teachers || []).map((t) => t.name).join(', ')),
    mine,
    h('p', { class: 'cl-links' }, h('a', { href: `/clases/${enc(id)}/tareas`, id: 'link-tareas', class: 'button' }, C.LANG === 'en' ? 'Homework' : 'Tareas'),
      h('a', { href: '/', id: 'play-engine', class: 'button' }, T().play_engine))),
  card(T().board, boardBox),
  card(T().classmates, mates),
  card(T().recent_games, h('div', { id: 'games-box' }, gamesList(view))));
  // Juego tras la tarea (issue 57): the pupil is told when free play waits.
  import('./tareas.js').then((m) => m.playLock(C, el)).catch(() => {});
  render(view);
  setInterval(async () => {
    try { const v = await C.api('GET', `/api/classes/${enc(id)}`); render(v); el.querySelector('#games-box').replaceChildren(gamesList(v)); } catch { /* next time */ }
  }, 10000);
}

async function teacherPage(el, id, first) {
  let view = first;
  let taught = [];
  try { taught = ((await C.api('GET', '/api/classes')).classes || []).filter((c) => c.id !== id && c.role === 'teacher'); } catch { taught = []; }
  const base = `/api/classes/${enc(id)}`;
  const reload = async () => {
    try { view = await C.api('GET', base); render(); } catch (e) { C.showError(e); }
  };

  // Head and links to the other class pages.
  const title = h('h1', { id: 'class-title' }, view.name);
  const descP = h('p', { id: 'class-desc' }, view.description);
  const links = h('nav', { class: 'cl-links no-print', 'aria-label': T().title },
    h('a', { href: `/clases/${enc(id)}/tarjetas`, id: 'link-cards' }, T().cards),
    h('a', { href: `${base}/cards.pdf`, id: 'link-cards-pdf' }, T().cards_pdf),
    h('a', { href: `/clases/${enc(id)}/simultanea`, id: 'link-simul' }, T().simul),
    h('a', { href: `/clases/${enc(id)}/torneo`, id: 'link-tournament' }, T().tournament),
    h('a', { href: `/clases/${enc(id)}/progreso`, id: 'link-progress' }, T().progress),
    h('a', { href: `/clases/${enc(id)}/tareas`, id: 'link-tareas' }, C.LANG === 'en' ? 'Homework' : 'Tareas'),
    h('a', { href: `/clase/${enc(id)}/entrar`, id: 'link-login' }, T().login_page),
    h('a', { href: '/clases' }, T().my_classes));

  // The class code.
  const codeEl = h('span', { id: 'class-code', class: 'cl-code' }, view.code);
  const codeMsg = note();
  const codeBox = card(T().class_code,
    h('p', {}, codeEl),
    h('p', { class: 'muted' }, T().code_help(`${location.origin}/clase/${id}/entrar`)),
    h('button', {
      type: 'button', id: 'class-new-code', class: 'secondary no-print',
      onclick: async () => {
        if (!window.confirm(T().new_code_confirm)) return;
        try { const r = await C.api('POST', `${base}/code`, {}); codeEl.textContent = r.code; codeMsg.ok(T().new_code_done); } catch (e) { codeMsg.err(e); }
      },
    }, T().new_code), codeMsg);

  // The roster.
  const rosterBody = h('tbody', {});
  const pupilMsg = note();
  const pupilGames = h('div', { id: 'pupil-games' });
  const roster = h('section', { class: 'card wide' }, h('h2', {}, T().roster),
    h('div', { class: 'cl-scroll' }, h('table', { id: 'roster', class: 'cl-table' },
      h('thead', {}, h('tr', {}, h('th', {}, T().online), h('th', {}, T().account), h('th', {}, T().real_name), h('th', {}, T().playing), h('th', { class: 'no-print' }, T().actions))),
      rosterBody)), pupilMsg, pupilGames);

  async function showGames(p) {
    try {
      const r = await C.api('GET', `${base}/pupils/${enc(p.name)}/games`);
      const games = r.games || [];
      pupilGames.replaceChildren(h('h3', {}, T().games_of(p.name, p.real_name)),
        games.length ? h('ul', { class: 'cl-list' }, games.map((g) => h('li', { 'data-game': g.game },
          h('a', { href: `/mis-partidas/${enc(g.game)}` }, `${g.white} – ${g.black}`), ` ${g.result || ''} · ${dateText(g.ended_ms)} · `,
          h('a', { href: g.pgn, download: `escaque-${g.game}.pgn` }, 'PGN'))))
          : h('p', { class: 'muted' }, T().no_games));
    } catch (e) { pupilMsg.err(e); }
  }

  function pupilRow(p) {
    const pw = h('span', { class: 'pw' });
    const acts = h('td', { class: 'acts no-print' },
      h('button', {
        type: 'button', class: 'secondary reset-password',
        onclick: async () => {
          if (!window.confirm(T().reset_confirm(p.name))) return;
          try { const r = await C.api('POST', `${base}/pupils/${enc(p.name)}/password`, {}); pw.textContent = r.password; pupilMsg.ok(T().reset_done(p.name, r.password)); } catch (e) { pupilMsg.err(e); }
        },
      }, T().reset_password),
      h('button', {
        type: 'button', class: 'secondary archive',
        onclick: async () => {
          try { await C.api('POST', `${base}/pupils/${enc(p.name)}`, { archived: !p.archived }); reload(); } catch (e) { pupilMsg.err(e); }
        },
      }, p.archived ? T().unarchive : T().archive),
      h('button', { type: 'button', class: 'secondary games', onclick: () => showGames(p) }, T().games));
    if (taught.length) {
      const sel = h('select', { class: 'move-to', 'aria-label': T().move_to }, h('option', { value: '' }, T().move_to), taught.map((c) => h('option', { value: c.id }, c.name)));
      acts.append(sel, h('button', {
        type: 'button', class: 'secondary move',
        onclick: async () => {
          if (!sel.value) return;
          try { await C.api('POST', `${base}/pupils/${enc(p.name)}/move`, { to: sel.value }); reload(); } catch (e) { pupilMsg.err(e); }
        },
      }, T().move));
    }
    return h('tr', { 'data-pupil': p.name, class: [p.online ? 'online' : '', p.archived ? 'archived' : ''].join(' ').trim() || null },
      h('td', {}, h('span', { class: 'dot', title: p.online ? T().online : T().offline }), h('span', { class: 'visually-hidden' }, p.online ? T().online : T().offline)),
      h('td', { class: 'name' }, p.name),
      h('td', { class: 'real' }, p.real_name, p.archived ? h('span', { class: 'muted' }, ` (${T().archived})`) : '', ' ', pw),
      h('td', {}, p.playing ? h('a', { href: `/partida/${enc(p.playing)}`, class: 'watch' }, T().watch) : ''),
      acts);
  }

  // Adding pupils from a pasted list.
  const paste = h('textarea', { id: 'pupils-paste', rows: 8, placeholder: T().paste_placeholder });
  const addMsg = note();
  const passwords = h('section', { id: 'pupil-passwords-box', class: 'card wide' });
  const addBox = card(T().add_pupils,
    h('label', { class: 'full' }, T().add_pupils_label, paste),
    h('div', { class: 'row' }, h('button', {
      type: 'button', id: 'pupils-add',
      onclick: async () => {
        if (!paste.value.trim()) return;
        try {
          const r = await C.api('POST', `${base}/pupils`, { text: paste.value });
          paste.value = '';
          addMsg.ok(T().added(r.pupils.length));
          passwords.replaceChildren(h('p', { class: 'cl-note' }, T().passwords_once),
            h('div', { class: 'cl-scroll' }, h('table', { id: 'pupil-passwords', class: 'cl-table' },
              h('thead', {}, h('tr', {}, h('th', {}, T().real_name), h('th', {}, T().account), h('th', {}, T().password))),
              h('tbody', {}, r.pupils.map((p) => h('tr', { 'data-pupil': p.name }, h('td', {}, p.real_name), h('td', {}, p.name), h('td', { class: 'pw' }, p.password)))))));
          reload();
        } catch (e) { addMsg.err(e); }
      },
    }, T().add)), addMsg);

  // A game between two pupils.
  const white = h('select', { id: 'start-game-white' });
  const black = h('select', { id: 'start-game-black' });
  const clock = h('select', { id: 'start-game-clock' },
    [['', T().no_clock], ['5+3', '5+3'], ['10+5', '10+5'], ['15+10', '15+10'], ['25+10', '25+10']].map(([v, l]) => h('option', { value: v, selected: v === '10+5' }, l)));
  const gameMsg = note();
  const gameBox = card(T().start_game_title, h('div', { class: 'row' },
    h('label', {}, T().white, white), h('label', {}, T().black, black), h('label', {}, T().clock, clock),
    h('button', {
      type: 'button', id: 'start-game',
      onclick: async () => {
        try {
          const r = await C.api('POST', `${base}/games`, { white: white.value, black: black.value, time_control: clock.value || null });
          gameMsg.replaceChildren(T().game_started, ' ', h('a', { href: r.watch, id: 'started-game' }, T().watch));
          gameMsg.className = 'muted';
          reload();
        } catch (e) { gameMsg.err(e); }
      },
    }, T().start_game)), gameMsg);

  // The board.
  const newsBox = h('div', {});
  const newsText = h('textarea', { id: 'news-text', rows: 3, maxlength: 2000 });
  const homework = h('input', { type: 'checkbox', id: 'news-homework' });
  const newsMsg = note();
  const boardCard = card(T().board, newsBox, h('div', { class: 'no-print' },
    h('label', { class: 'full' }, T().news_label, newsText),
    h('div', { class: 'row' }, h('label', { class: 'row' }, homework, ` ${T().homework}`),
      h('button', {
        type: 'button', id: 'news-post',
        onclick: async () => {
          try { await C.api('POST', `${base}/news`, { text: newsText.value, homework: homework.checked }); newsText.value = ''; homework.checked = false; reload(); } catch (e) { newsMsg.err(e); }
        },
      }, T().publish)), newsMsg));

  // Co-teachers and the class's name.
  const teachersList = h('ul', { id: 'teachers', class: 'cl-list' });
  const coName = h('input', { id: 'coteacher-name', autocomplete: 'off' });
  const coMsg = note();
  const nameIn = h('input', { id: 'edit-name', maxlength: 80, value: view.name });
  const descIn = h('textarea', { id: 'edit-description', rows: 2, maxlength: 2000 }, view.description);
  const archivedIn = h('input', { type: 'checkbox', id: 'edit-archived', checked: view.archived });
  const editMsg = note();
  const settings = card(T().settings, teachersList,
    h('div', { class: 'row no-print' }, h('label', {}, T().coteacher, coName), h('button', {
      type: 'button', id: 'coteacher-add', class: 'secondary',
      onclick: async () => {
        try { await C.api('POST', `${base}/teachers`, { name: coName.value }); coName.value = ''; coMsg.ok(T().coteacher_added); reload(); } catch (e) { coMsg.err(e); }
      },
    }, T().add)), coMsg,
    h('div', { class: 'no-print' }, h('label', { class: 'full' }, T().class_name, nameIn), h('label', { class: 'full' }, T().description, descIn),
      h('div', { class: 'row' }, h('label', { class: 'row' }, archivedIn, ` ${T().archive_class}`), h('button', {
        type: 'button', id: 'edit-save', class: 'secondary',
        onclick: async () => {
          try { await C.api('POST', base, { name: nameIn.value, description: descIn.value, archived: archivedIn.checked }); editMsg.ok(T().saved); reload(); } catch (e) { editMsg.err(e); }
        },
      }, T().save)), editMsg));

  const gamesBox = h('div', { id: 'games-box' });

  function fillSelect(sel, pupils, keep) {
    const was = sel.value;
    sel.replaceChildren(...pupils.map((p) => h('option', { value: p.name }, `${p.name} (${p.real_name})${p.online ? ' ●' : ''}`)));
    if (keep && pupils.some((p) => p.name === was)) sel.value = was;
  }

  function render() {
    title.textContent = view.name;
    descP.textContent = view.description;
    const pupils = view.pupils || [];
    rosterBody.replaceChildren(...pupils.map(pupilRow));
    if (!pupils.length) rosterBody.append(h('tr', {}, h('td', { colspan: 5, class: 'muted' }, T().no_pupils)));
    const active = pupils.filter((p) => !p.archived).sort((a, b) => Number(b.online) - Number(a.online));
    const firstFill = !white.options.length;
    fillSelect(white, active, true);
    fillSelect(black, active, true);
    if (firstFill && active.length > 1) black.value = active[1].name;
    newsBox.replaceChildren(board(view, true, reload));
    gamesBox.replaceChildren(gamesList(view));
    teachersList.replaceChildren(...(view.teachers || []).map((t) => h('li', {}, t.name)));
  }

  el.append(h('div', { class: 'wide' }, title, descP, links),
    codeBox, addBox, gameBox, passwords, roster, boardCard, card(T().recent_games, gamesBox), settings);
  // Juego tras la tarea (issue 57): the class's option.
  import('./tareas.js').then((m) => m.playAfterCard(C, id)).then((c) => el.append(c)).catch(() => {});
  render();
  // Who is online and who is playing changes: the page asks again.
  setInterval(async () => {
    try { view = await C.api('GET', base); render(); } catch { /* next time */ }
  }, 10000);
}
