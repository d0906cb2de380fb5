// escaque in the browser: Inicio, Partida, Mis partidas. Everything about the
// rules (legal destinations, SAN, verdicts, end-of-game wording) comes from the
// server; this script only shows it and sends what the person does.
import es from './i18n/es.js';
import en from './i18n/en.js';
import { Chessground as chessground } from './vendor/chessground/chessground.min.js';
import { moveWords, readBoard } from './speech.js';
import { boardKeys } from './boardkeys.js';

// ------------------------------------------------------------------ settings

const store = {
  get: (k, d) => { try { const v = localStorage.getItem(k); return v === null ? d : v; } catch { return d; } },
  set: (k, v) => { try { localStorage.setItem(k, v); } catch { /* private mode */ } },
  del: (k) => { try { localStorage.removeItem(k); } catch { /* private mode */ } },
};

function pickLang() {
  const q = new URLSearchParams(location.search).get('lang');
  if (q === 'es' || q === 'en') { store.set('lang', q); return q; }
  const saved = store.get('lang', null);
  if (saved === 'es' || saved === 'en') return saved;
  const nav = (navigator.languages || [navigator.language || 'es']).map((l) => l.toLowerCase());
  const firstKnown = nav.find((l) => l.startsWith('es') || l.startsWith('en'));
  return firstKnown && firstKnown.startsWith('en') ? 'en' : 'es';
}

const LANG = pickLang();
const t = LANG === 'en' ? en : es;
const srMode = () => store.get('sr', '0') === '1';

// A log the browser tests read: when each ply was sent here and seen here.
const log = { sent: {}, seen: {} };
window.escaqueLog = log;
const now = () => performance.timeOrigin + performance.now();

// ------------------------------------------------------------------ helpers

function h(tag, attrs, ...kids) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else if (k === 'text') el.textContent = v;
    else el.setAttribute(k, v === true ? '' : v);
  }
  for (const kid of kids.flat()) {
    if (kid === null || kid === undefined || kid === false) continue;
    el.append(kid instanceof Node ? kid : document.createTextNode(String(kid)));
  }
  return el;
}
const $ = (sel) => document.querySelector(sel);

/**
 * A chessground board that measures where it is at every press. Chessground
 * keeps the board's box from when it was last drawn, resized or scrolled,
 * and turns a press into a square with it; a page whose text above the
 * board changes (a message line, the simul's note, a board coming forward
 * in the grid) moves the board without any of those, and a press is then
 * read as many pixels off as the page moved: on the simul page a click on
 * e2 picked a piece with no destinations and every drag failed (issue 60).
 * Measured again before its own handler reads it, the box is always where
 * the person sees the board.
 */
function Chessground(el, config) {
  const cg = chessground(el, config);
  const measure = () => { if (cg.state.dom && !cg.state.dom.destroyed) cg.state.dom.bounds.clear(); };
  for (const kind of ['mousedown', 'touchstart']) el.addEventListener(kind, measure, { capture: true, passive: true });
  return cg;
}

async function api(method, url, body) {
  const opts = { method, headers: { Accept: 'application/json' }, credentials: 'same-origin' };
  if (body !== undefined) {
    opts.headers['Content-Type'] = 'application/json';
    opts.body = JSON.stringify(body);
  }
  const r = await fetch(url, opts);
  let data = null;
  try { data = await r.json(); } catch { data = null; }
  if (!r.ok) {
    const msg = data && (data[LANG] || data.error || data.code);
    const e = new Error(msg || `${r.status}`);
    e.status = r.status;
    e.data = data;
    throw e;
  }
  return data;
}

function say(text, where = '#sr-live') {
  const el = $(where);
  if (!el) return;
  // Re-setting the same text is announced again only if it changes.
  el.textContent = '';
  setTimeout(() => { el.textContent = text; }, 30);
}

function showError(e) {
  const el = $('#error');
  if (el) el.textContent = e ? `${t.error}: ${e.message || e}` : '';
}

const levelName = (n) => t.levels[n - 1] || String(n);

// A guest's name is made and stored once, in Spanish (`invitado-287faa`); the
// English page shows it as `guest-287faa`. No account may take either form
// (docs/protocol.md), so the prefix always means a guest, and both pages name
// the same person with the same six characters.
const GUEST_PREFIX = 'invitado-';
function shownName(name) {
  if (typeof name !== 'string' || !name.startsWith(GUEST_PREFIX)) return name;
  return `${t.guest_prefix}${name.slice(GUEST_PREFIX.length)}`;
}
// A player's name as a link to their page (/jugador/NAME); a guest has no
// page, so a guest's name stays text.
function playerLink(name, attrs = {}) {
  if (typeof name !== 'string' || name.startsWith(GUEST_PREFIX)) return shownName(name);
  return h('a', { href: `/jugador/${encodeURIComponent(name)}`, class: 'player-link', ...attrs }, name);
}
const seatKey = (game) => `seat:${game}`;
function keepSeat(seat) {
  if (seat && seat.game && seat.secret) store.set(seatKey(seat.game), seat.secret);
}

// ------------------------------------------------------------------ frame

function applyTheme() {
  const saved = store.get('theme', null);
  const dark = saved ? saved === 'dark' : window.matchMedia('(prefers-color-scheme: dark)').matches;
  document.documentElement.dataset.theme = dark ? 'dark' : 'light';
}

function frame(me) {
  document.documentElement.lang = LANG;
  document.title = t.title;
  const langSel = h('select', { id: 'lang', 'aria-label': t.language, onchange: (e) => { store.set('lang', e.target.value); location.reload(); } },
    h('option', { value: 'es', selected: LANG === 'es' }, 'Español'),
    h('option', { value: 'en', selected: LANG === 'en' }, 'English'));
  const themeBtn = h('button', {
    id: 'theme', type: 'button',
    onclick: () => {
      const next = document.documentElement.dataset.theme === 'dark' ? 'light' : 'dark';
      store.set('theme', next);
      applyTheme();
      themeBtn.textContent = `${t.theme}: ${next === 'dark' ? t.theme_dark : t.theme_light}`;
    },
  }, `${t.theme}: ${document.documentElement.dataset.theme === 'dark' ? t.theme_dark : t.theme_light}`);
  const sr = h('input', {
    type: 'checkbox', id: 'sr-toggle', checked: srMode(),
    onchange: (e) => { store.set('sr', e.target.checked ? '1' : '0'); document.body.classList.toggle('sr', e.target.checked); },
  });
  document.body.classList.toggle('sr', srMode());
  const header = h('header', { class: 'top' },
    h('a', { class: 'skip', href: '#main' }, t.skip),
    h('a', { class: 'brand', href: '/' }, 'escaque'),
    h('nav', { 'aria-label': 'escaque' },
      h('a', { href: '/', id: 'nav-home' }, t.nav_home),
      h('a', { href: '/mis-partidas', id: 'nav-games' }, t.nav_games),
      h('a', { href: '/torneos', id: 'nav-tournaments' }, t.tn.tournaments),
      h('a', { href: '/analisis', id: 'nav-analysis' }, t.an.title),
      h('a', { href: '/problemas', id: 'nav-puzzles' }, t.pz.title),
      h('a', { href: '/aprender', id: 'nav-learn' }, t.nav_learn),
      // Classes (issue 26): for an account (a teacher's classes, a pupil's one).
      me && me.account ? h('a', { href: '/clases', id: 'nav-classes' }, t.cl.title) : null),
    h('div', { class: 'prefs' },
      langSel, themeBtn,
      h('label', { class: 'srlabel' }, sr, ' ', t.sr_mode),
      h('span', { id: 'me', class: 'me' }, me ? `${t.playing_as} ${shownName(me.name)}` : '')));
  const main = h('main', { id: 'main', tabindex: '-1' });
  document.body.replaceChildren(header,
    h('p', { id: 'error', role: 'alert', class: 'error' }),
    main,
    h('div', { id: 'sr-live', class: 'visually-hidden', 'aria-live': 'assertive', 'aria-atomic': 'true' }));
  return main;
}

// ------------------------------------------------------------------ home

const TIME_CONTROLS = ['1+0', '3+2', '5+3', '10+0', '15+10', '30+0'];

function optionsFields(prefix, { level = false, odds = false } = {}) {
  const fields = [];
  if (level) {
    fields.push(h('label', {}, t.level, ' ',
      h('select', { id: `${prefix}-level`, name: 'level' },
        [...Array(10)].map((_, i) => h('option', { value: i + 1, selected: i === 0 }, `${i + 1} — ${levelName(i + 1)}`)))));
  }
  fields.push(h('label', {}, t.color, ' ',
    h('select', { id: `${prefix}-color`, name: 'color' },
      h('option', { value: 'white' }, t.white), h('option', { value: 'black' }, t.black),
      h('option', { value: 'random', selected: true }, t.random))));
  fields.push(h('label', {}, t.time_control, ' ',
    h('input', { id: `${prefix}-tc`, name: 'time_control', list: 'tc-list', value: '10+0', size: 8, autocomplete: 'off' })));
  fields.push(h('label', {}, t.rules, ' ',
    h('select', { id: `${prefix}-rules`, name: 'rules' },
      ['fide2023', 'london1846', 'london1846_english'].map((r) => h('option', { value: r }, t.rule_sets[r])))));
  // Chess960 (issue 25): the variant, and a numbered start position
  // (empty: drawn at random by the server).
  fields.push(h('label', {}, t.variant, ' ',
    h('select', {
      id: `${prefix}-variant`, name: 'variant',
      onchange: (e) => { document.getElementById(`${prefix}-position-label`).hidden = e.target.value !== 'chess960'; },
    }, ['standard', 'chess960'].map((v) => h('option', { value: v }, t.variants[v])))));
  fields.push(h('label', { id: `${prefix}-position-label`, hidden: true }, t.position_960, ' ',
    h('input', { id: `${prefix}-position`, name: 'position', type: 'number', min: 0, max: 959, size: 4, placeholder: t.position_random, autocomplete: 'off' })));
  if (odds) {
    fields.push(h('label', {}, t.odds, ' ',
      h('select', { id: `${prefix}-odds`, name: 'odds' },
        h('option', { value: '' }, t.odds_none),
        ['pawn_and_move', 'knight', 'rook', 'queen'].map((o) => h('option', { value: o }, t[`odds_${o}`])))));
  }
  return fields;
}

function formValues(prefix) {
  const v = (id) => { const el = document.getElementById(`${prefix}-${id}`); return el ? el.value.trim() : ''; };
  const body = { color: v('color'), rules: v('rules') };
  const tc = v('tc');
  if (tc && tc !== '-' && tc !== t.no_clock) body.time_control = tc;
  const odds = v('odds');
  if (odds) body.odds = odds;
  if (v('variant') === 'chess960') {
    body.variant = 'chess960';
    const n = v('position');
    body.position = n === '' ? 'random' : Number(n);
  }
  return body;
}

// Rated play (issue 25): "Con puntuación" on the friend challenge and the
// seek, and on the seek a rating range relative to the poster's rating.
// Only an account can play rated: a guest sees the box disabled and why.
const RANGE_MIN = [-100, -200, -300, -500];
const RANGE_MAX = [100, 200, 300, 500];
function ratedFields(prefix, me, { range = false } = {}) {
  const account = !!(me && me.account);
  const fields = [h('label', { class: 'rated-box' },
    h('span', {}, h('input', {
      type: 'checkbox', id: `${prefix}-rated`, name: 'rated', disabled: !account,
      onchange: (e) => { document.querySelectorAll(`.${prefix}-range select`).forEach((x) => { x.disabled = !e.target.checked; }); },
    }), ' ', t.pl.rated_label),
    account ? null : h('span', { class: 'help' }, t.pl.rated_needs_account))];
  if (range) {
    const sel = (which, values) => h('select', { id: `${prefix}-range-${which}`, disabled: true },
      h('option', { value: '' }, t.pl.range_any),
      values.map((v) => h('option', { value: v }, v > 0 ? `+${v}` : `−${-v}`)));
    fields.push(h('fieldset', { class: `rating-range ${prefix}-range` },
      h('legend', {}, t.pl.range),
      h('label', {}, t.pl.range_min, ' ', sel('min', RANGE_MIN)),
      h('label', {}, t.pl.range_max, ' ', sel('max', RANGE_MAX))));
  }
  return fields;
}

function ratedValues(prefix) {
  const box = document.getElementById(`${prefix}-rated`);
  // Casual is the default: `rated` is sent only when asked for.
  if (!box || !box.checked) return {};
  const out = { rated: true };
  const lo = document.getElementById(`${prefix}-range-min`);
  const hi = document.getElementById(`${prefix}-range-max`);
  if (lo && hi && (lo.value || hi.value)) {
    // One side left at "any": the widest offered.
    out.rating_range = [lo.value ? Number(lo.value) : RANGE_MIN[RANGE_MIN.length - 1], hi.value ? Number(hi.value) : RANGE_MAX[RANGE_MAX.length - 1]];
  }
  return out;
}

async function home(main, me) {
  main.append(
    h('datalist', { id: 'tc-list' }, TIME_CONTROLS.map((c) => h('option', { value: c })), h('option', { value: '-', label: t.no_clock })),
    h('section', { class: 'card', 'aria-labelledby': 'h-engine' },
      h('h2', { id: 'h-engine' }, t.play_engine),
      h('form', {
        id: 'engine-form',
        onsubmit: async (e) => {
          e.preventDefault();
          try {
            const body = { opponent: 'engine', level: Number($('#engine-level').value), ...formValues('engine') };
            const seat = await api('POST', '/api/games', body);
            keepSeat(seat);
            location.href = `/partida/${seat.game}`;
          } catch (err) { showError(err); }
        },
      }, optionsFields('engine', { level: true, odds: true }), h('button', { id: 'start-engine', type: 'submit' }, t.start))),
    h('section', { class: 'card', 'aria-labelledby': 'h-friend' },
      h('h2', { id: 'h-friend' }, t.challenge),
      h('form', {
        id: 'friend-form',
        onsubmit: async (e) => {
          e.preventDefault();
          try {
            const seat = await api('POST', '/api/games', { opponent: 'friend', ...formValues('friend'), ...ratedValues('friend') });
            keepSeat(seat);
            const link = `${location.origin}/partida/${seat.game}`;
            $('#challenge-out').replaceChildren(
              h('label', { for: 'challenge-link' }, t.challenge_link),
              h('input', { id: 'challenge-link', readonly: true, value: link, size: 40 }),
              h('button', {
                type: 'button', id: 'copy-link',
                onclick: async (ev) => {
                  const input = $('#challenge-link');
                  input.select();
                  try { await navigator.clipboard.writeText(link); } catch { document.execCommand && document.execCommand('copy'); }
                  ev.target.textContent = t.copied;
                },
              }, t.copy),
              h('a', { href: `/partida/${seat.game}`, id: 'go-game', class: 'button' }, t.go_to_game));
            $('#challenge-link').focus();
          } catch (err) { showError(err); }
        },
      }, optionsFields('friend'), ratedFields('friend', me), h('button', { id: 'create-challenge', type: 'submit' }, t.challenge_create)),
      h('div', { id: 'challenge-out', 'aria-live': 'polite' })),
    h('section', { class: 'card', 'aria-labelledby': 'h-lobby' },
      h('h2', { id: 'h-lobby' }, t.lobby),
      h('ul', { id: 'seeks', 'aria-live': 'polite' }),
      h('form', {
        id: 'seek-form',
        onsubmit: async (e) => {
          e.preventDefault();
          try { await api('POST', '/api/seeks', { ...formValues('seek'), ...ratedValues('seek') }); } catch (err) { showError(err); }
        },
      }, optionsFields('seek'), ratedFields('seek', me, { range: true }), h('button', { id: 'seek-create', type: 'submit' }, t.seek_create))),
    h('section', { class: 'card', 'aria-labelledby': 'h-live' },
      h('h2', { id: 'h-live' }, t.live_games),
      h('ul', { id: 'live-games' })),
    accountCard(me));
  lobby(me);
  if (me && me.managed) {
    // Juego tras la tarea (issue 57): free play may wait for the homework.
    const { playLock } = await import('./tareas.js');
    await playLock({ h, api, t, LANG, showError }, main);
  }
}

function accountCard(me) {
  const card = h('section', { class: 'card', 'aria-labelledby': 'h-account' }, h('h2', { id: 'h-account' }, t.login_title));
  if (me && me.account) {
    card.append(h('p', {}, `${t.playing_as} ${shownName(me.name)}`),
      h('button', { id: 'logout', type: 'button', onclick: async () => { await api('POST', '/api/logout', {}); location.reload(); } }, t.logout));
    return card;
  }
  const send = (url) => async (e) => {
    e.preventDefault();
    try {
      await api('POST', url, { name: $('#acct-name').value, password: $('#acct-pass').value });
      location.reload();
    } catch (err) { showError(err); }
  };
  card.append(h('p', {}, `${t.guest}: ${me ? shownName(me.name) : ''}`),
    h('form', { id: 'login-form', onsubmit: send('/api/login') },
      h('label', {}, t.name, ' ', h('input', { id: 'acct-name', autocomplete: 'username', required: true })),
      h('label', {}, t.password, ' ', h('input', { id: 'acct-pass', type: 'password', autocomplete: 'current-password', required: true })),
      h('button', { type: 'submit', id: 'login' }, t.login),
      h('button', { type: 'button', id: 'signup', onclick: send('/api/signup') }, t.signup)));
  return card;
}

// "Partidas en juego": the server pushes the list over the lobby's socket
// (`{"t":"live"}`); each game links to its page, where a visitor watches.
function showLive(games) {
  const list = $('#live-games');
  if (!list) return;
  if (!games.length) { list.replaceChildren(h('li', { class: 'muted' }, t.live_empty)); return; }
  list.replaceChildren(...games.map((g) => {
    const c = g.clock;
    const parts = [c ? c.control : t.no_clock, t.rule_sets[g.rules] || g.rules, t.live_moves(Math.ceil(g.plies / 2))];
    if (g.variant === 'chess960') parts.splice(2, 0, t.variants.chess960);
    if (c) parts.push(`${fmtClock(c.white_ms)} – ${fmtClock(c.black_ms)}`);
    if (g.opening) parts.push(openingText(g.opening));
    return h('li', { class: 'live-game' },
      h('a', { href: `/partida/${g.game}`, class: 'watch', 'aria-label': t.live_watch(shownName(g.white), shownName(g.black)) }, `${shownName(g.white)} – ${shownName(g.black)}`),
      ' ', h('span', { class: 'muted' }, parts.join(' · ')));
  }));
}

// Chess960 (issue 25): " · Chess960 n.º 291" (or "al azar" for a seek whose
// position is drawn when accepted); nothing for standard chess.
function variantText(variant, position) {
  if (variant !== 'chess960') return '';
  return ` · ${t.variants.chess960} ${position === null || position === undefined ? t.position_random : t.position_number(position)}`;
}

// A seek's pool and rating (rated play, issue 25).
function seekKind(s) {
  return s.rated ? `${(t.perfs && t.perfs[s.perf]) || s.perf || ''} · ${t.pl.rated} · ` : '';
}
function seekRating(s) {
  if (s.rating === null || s.rating === undefined) return '';
  const range = s.rating_min !== null && s.rating_min !== undefined && s.rating_max !== null && s.rating_max !== undefined
    ? ` · ${t.pl.range_short(s.rating_min, s.rating_max)}` : '';
  return h('span', { class: 'muted seek-rating' }, ` (${s.rating}${s.provisional ? '?' : ''})${range}`);
}

function lobby(me) {
  const list = $('#seeks');
  const show = (seeks) => {
    if (!seeks.length) { list.replaceChildren(h('li', { class: 'muted' }, t.lobby_empty)); return; }
    list.replaceChildren(...seeks.map((s) => {
      const mine = me && s.name === me.name;
      const color = { white: t.white, black: t.black, random: t.random }[s.color] || s.color;
      return h('li', { class: 'seek' },
        h('span', {}, `${s.time_control || t.no_clock} · ${color} · ${t.rule_sets[s.rules] || s.rules}${variantText(s.variant, s.position)} · ${seekKind(s)}${t.seek_by} `, playerLink(s.name), seekRating(s)), ' ',
        mine
          ? h('button', { type: 'button', class: 'withdraw', onclick: () => api('DELETE', `/api/seeks/${s.id}`).catch(showError) }, t.seek_withdraw)
          : h('button', {
            type: 'button', class: 'accept-seek',
            onclick: async () => {
              try { const seat = await api('POST', `/api/seeks/${s.id}/accept`, {}); keepSeat(seat); location.href = `/partida/${seat.game}`; } catch (err) { showError(err); }
            },
          }, t.seek_accept));
    }));
  };
  api('GET', '/api/seeks').then((d) => show(d.seeks || [])).catch(() => {});
  api('GET', '/api/games/live').then((d) => showLive(d.games || [])).catch(() => {});
  let delay = 500;
  const open = () => {
    const ws = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws/lobby`);
    ws.onopen = () => { delay = 500; };
    ws.onmessage = (ev) => {
      const m = JSON.parse(ev.data);
      if (m.t === 'seeks') show(m.seeks || []);
      if (m.t === 'live') showLive(m.games || []);
      if (m.t === 'seek_accepted') { keepSeat(m); location.href = `/partida/${m.game}`; }
      // A tournament round was paired: the player is taken to their game.
      if (m.t === 'your_game' && m.game) { keepSeat(m); location.href = `/partida/${m.game}`; }
    };
    ws.onclose = () => { setTimeout(open, delay); delay = Math.min(delay * 2, 5000); };
  };
  open();
}

// A tournament player on a page without the lobby's list (a finished game,
// Mis partidas) is still taken to their next game when its round is paired:
// the lobby's socket carries `your_game` to every page of that person.
let followingGames = false;
function followYourGame() {
  if (followingGames) return;
  followingGames = true;
  let delay = 1000;
  const open = () => {
    const ws = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws/lobby`);
    ws.onopen = () => { delay = 1000; };
    ws.onmessage = (ev) => {
      let m;
      try { m = JSON.parse(ev.data); } catch { return; }
      if (m.t === 'your_game' && m.game && location.pathname !== `/partida/${m.game}`) { keepSeat(m); location.href = `/partida/${m.game}`; }
    };
    ws.onclose = () => { setTimeout(open, delay); delay = Math.min(delay * 2, 10000); };
  };
  open();
}

// ------------------------------------------------------------------ game

const ROLE = { q: 'queen', r: 'rook', b: 'bishop', n: 'knight' };
const FIG = {
  es: { R: '♔', D: '♕', T: '♖', A: '♗', C: '♘' },
  en: { K: '♔', Q: '♕', R: '♖', B: '♗', N: '♘' },
};
function showSan(m) {
  const s = LANG === 'es' ? (m.san_es || m.san) : m.san;
  if (store.get('fig', '0') !== '1') return s;
  const map = FIG[LANG];
  return s.replace(/[KQRBNDTAC]/g, (c) => map[c] || c);
}

/** Rows of the move list: {num, w, b} with ply indices (null where empty), from the start FEN's side and number. */
function rows(count, startFen) {
  const f = (startFen || '').split(' ');
  const blackFirst = f[1] === 'b';
  let num = Number(f[5]) || 1;
  const out = [];
  let k = 0;
  if (blackFirst && count > 0) { out.push({ num, w: null, b: 0 }); k = 1; num += 1; }
  for (; k < count; k += 2) { out.push({ num, w: k, b: k + 1 < count ? k + 1 : null }); num += 1; }
  return out;
}

function plyLabel(k, startFen) {
  const r = rows(k + 1, startFen).pop();
  return r.b === k ? `${r.num}…` : `${r.num}.`;
}

function fmtClock(ms) {
  ms = Math.max(0, ms);
  if (ms < 10000) return `0:0${Math.floor(ms / 1000)}.${Math.floor((ms % 1000) / 100)}`;
  const s = Math.ceil(ms / 1000);
  const hh = Math.floor(s / 3600), mm = Math.floor((s % 3600) / 60), ss = s % 60;
  const p2 = (n) => String(n).padStart(2, '0');
  return hh ? `${hh}:${p2(mm)}:${p2(ss)}` : `${mm}:${p2(ss)}`;
}

function destsMap(legal) {
  const m = new Map();
  for (const [from, tos] of Object.entries(legal || {})) m.set(from, tos);
  return m;
}

async function game(main, id) {
  let S; // the latest state from the server
  let moves = [];
  try { S = await api('GET', `/api/games/${id}`); } catch (e) {
    main.append(h('p', { class: 'error' }, e.status === 404 ? t.not_found : e.message));
    return;
  }
  moves = S.moves || [];
  let secret = store.get(seatKey(id), null);
  if (!secret) {
    try { const seat = await api('POST', `/api/games/${id}/seat`, {}); keepSeat(seat); secret = seat.secret; } catch { /* a spectator */ }
  }
  let you = null; // 'white' | 'black' | null, as the server says
  let orientation = 'white';
  let flipped = false;
  let review = null; // ply shown while reviewing
  let positions = null;
  let ws = null;
  let reqId = 0;
  let clockBase = null;
  let lastSeenPly = moves.length;
  let opened = false;
  let retries = 0;
  // The player's move not yet seen played: {ply, fen, text}. When the
  // connection drops before the server played it (a server process stopped,
  // the network failed), the first state after reconnecting says whether it
  // was played; if not, and the position is the same with the player still
  // to move, it is sent again, so a move is never lost to a reconnection.
  let pendingMove = null;
  let resendOnState = false;
  let pendingPromotion = null;
  let premoveSet = false;

  const boardEl = h('div', { id: 'board', class: 'board', 'aria-describedby': 'board-help' });
  const clockTop = h('div', { class: 'clock', id: 'clock-top', role: 'timer', 'aria-live': 'off' });
  const clockBottom = h('div', { class: 'clock', id: 'clock-bottom', role: 'timer', 'aria-live': 'off' });
  const nameTop = h('div', { class: 'player', id: 'name-top' });
  const nameBottom = h('div', { class: 'player', id: 'name-bottom' });
  const status = h('p', { id: 'status', class: 'status', role: 'status', 'aria-live': 'polite' });
  // A tournament game links back to its tournament (round and board).
  const tnLink = h('p', { id: 'tournament-link', hidden: true });
  const variantLine = h('p', { id: 'variant', class: 'muted', hidden: true });
  const openingLine = h('p', { id: 'opening', class: 'muted', hidden: true });
  const ratedNote = h('p', { id: 'rated-note', class: 'muted', hidden: true });
  const endMsg = h('div', { id: 'end-message', class: 'end', role: 'alert', hidden: true });
  const conn = h('p', { id: 'conn', class: 'conn', role: 'status', hidden: true });
  const moveList = h('ol', { id: 'moves', class: 'moves', 'aria-label': t.moves });
  const controls = h('div', { id: 'controls', class: 'controls' });
  const promo = h('div', { id: 'promotion', class: 'promotion', role: 'dialog', 'aria-label': t.promote_to, hidden: true });
  const reviewBar = h('p', { id: 'review-bar', class: 'review', hidden: true }, t.review, ' ',
    h('button', { type: 'button', id: 'back-live', onclick: () => { review = null; render(); } }, t.back_live));
  const moveForm = h('form', {
    id: 'move-form', class: 'move-form',
    onsubmit: (e) => {
      e.preventDefault();
      const v = $('#move-input').value.trim();
      if (v) { sendMove(v); $('#move-input').value = ''; }
    },
  }, h('label', { for: 'move-input' }, t.type_move), h('input', { id: 'move-input', autocomplete: 'off', autocapitalize: 'off', spellcheck: 'false' }),
  h('button', { type: 'submit', id: 'move-send' }, t.send));
  const srCmd = h('form', {
    id: 'sr-form', class: 'sr-only-mode',
    onsubmit: (e) => {
      e.preventDefault();
      const c = $('#sr-cmd').value;
      $('#sr-cmd').value = '';
      say(srCommand(c));
    },
  }, h('label', { for: 'sr-cmd' }, t.sr_command), h('input', { id: 'sr-cmd', autocomplete: 'off' }), h('p', { class: 'help' }, t.sr_help));
  const figBox = h('label', { class: 'fig' }, h('input', {
    type: 'checkbox', id: 'fig-toggle', checked: store.get('fig', '0') === '1',
    onchange: (e) => { store.set('fig', e.target.checked ? '1' : '0'); renderMoves(); },
  }), ' ', t.figurines);

  main.append(h('div', { class: 'game' },
    h('div', { class: 'board-col' }, h('div', { class: 'bar' }, nameTop, clockTop), h('div', { class: 'board-wrap' }, boardEl, promo), h('div', { class: 'bar' }, nameBottom, clockBottom), moveForm,
      h('p', { id: 'board-help', class: 'help' }, t.board_help)),
    h('div', { class: 'side' }, tnLink, variantLine, openingLine, ratedNote, conn, status, h('p', { id: 'premove-note', class: 'muted', 'aria-live': 'polite' }), endMsg, reviewBar, controls, h('h2', {}, t.moves), moveList, figBox, srCmd)));

  // Adjournment and the sealed move: the sealing dialog (kept across
  // renders, so that what is typed survives an event) and the verdict.
  const sealBox = h('form', {
    id: 'seal-form', class: 'seal-form', role: 'dialog', 'aria-labelledby': 'seal-title', hidden: true,
    onsubmit: (e) => {
      e.preventDefault();
      const v = $('#seal-input').value.trim();
      if (v) send({ t: 'seal', move: v });
    },
  }, h('p', { id: 'seal-title' }, h('strong', {}, t.seal_title)), h('p', { class: 'help' }, t.seal_help),
  h('label', { for: 'seal-input' }, t.seal_label), ' ',
  h('input', { id: 'seal-input', autocomplete: 'off', autocapitalize: 'off', spellcheck: 'false', maxlength: 32 }), ' ',
  h('button', { type: 'submit', id: 'seal-send' }, t.seal_send));
  const envelopeNote = h('p', { id: 'envelope-note', class: 'envelope', role: 'status', hidden: true });
  controls.before(sealBox);
  endMsg.before(envelopeNote);

  const cg = Chessground(boardEl, {
    coordinates: true,
    autoCastle: true,
    animation: { enabled: true, duration: 120 },
    highlight: { lastMove: true, check: true },
    movable: { free: false, showDests: true, events: { after: onUserMove } },
    premovable: {
      enabled: true, showDests: true,
      events: {
        set: () => { premoveSet = true; renderControls(); say(t.premove_set, '#premove-note'); },
        unset: () => { premoveSet = false; renderControls(); $('#premove-note').textContent = ''; },
      },
    },
    draggable: { enabled: true, showGhost: true },
    drawable: { enabled: false },
  });
  window.escaqueBoard = cg;
  boardKeys(cg, boardEl, {
    t, say,
    mine: () => (S.status === 'playing' && review === null ? you : null),
    myTurn: () => S.status === 'playing' && S.turn === you,
  });

  function send(msg) {
    if (!ws || ws.readyState !== 1) return false;
    msg.id = ++reqId;
    ws.send(JSON.stringify(msg));
    return true;
  }
  function sendMove(text) {
    log.sent[moves.length] = now();
    pendingMove = { ply: moves.length, fen: S.fen, text };
    if (!send({ t: 'move', move: text })) showError(t.reconnecting);
  }

  // After a reconnection's first state: the pending move again, or forgotten.
  function resendPending() {
    const p = pendingMove;
    if (!p) return;
    if (moves.length === p.ply && S.fen === p.fen && S.status === 'playing' && you && S.turn === you) {
      send({ t: 'move', move: p.text });
    } else {
      pendingMove = null;
    }
  }

  function onUserMove(orig, dest) {
    if (S.sealing && S.sealing === you) { sealFromBoard(orig, dest); return; }
    const promos = (S.legal_uci || []).filter((u) => u.length === 5 && u.startsWith(orig + dest));
    if (promos.length) { askPromotion(orig, dest, promos); return; }
    sendMove(orig + dest);
  }

  // While sealing, a move made on the board is not played: it becomes the
  // sealed text (coordinates; a promotion as a queen, which the text can
  // change), and the piece goes back.
  function sealFromBoard(orig, dest) {
    const promo = (S.legal_uci || []).some((u) => u.length === 5 && u.startsWith(orig + dest)) ? 'q' : '';
    $('#seal-input').value = orig + dest + promo;
    $('#seal-input').focus();
    render();
  }

  function askPromotion(orig, dest, promos) {
    pendingPromotion = { orig, dest };
    const color = you || S.turn;
    // A move picked with the keyboard gets the focus back on the board.
    const back = () => { if (fromKeys) boardEl.focus(); };
    const fromKeys = document.activeElement === boardEl;
    promo.replaceChildren(h('p', {}, t.promote_to),
      ...['q', 'r', 'b', 'n'].filter((r) => promos.some((u) => u[4] === r)).map((r) => h('button', {
        type: 'button', class: `promo promo-${r}`, 'data-role': r,
        onclick: () => { promo.hidden = true; pendingPromotion = null; sendMove(orig + dest + r); back(); },
      }, h('span', { class: 'cg-wrap piece-box', 'aria-hidden': 'true' }, h('piece', { class: `${ROLE[r]} ${color}` })), t.pieces[r])),
      h('button', { type: 'button', class: 'promo-cancel', 'aria-label': t.cancel, onclick: () => { promo.hidden = true; pendingPromotion = null; render(); back(); } }, '✕'));
    promo.hidden = false;
    promo.querySelector('button').focus();
  }

  function srCommand(c) {
    const s = c.trim().toLowerCase();
    if (s === 'r' || s === 'reloj' || s === 'relojes' || s === 'clocks') {
      if (!clockBase) return t.no_clock;
      const [w, b] = currentClocks();
      return t.clocks_read(fmtClock(w), fmtClock(b));
    }
    if (s === 'u' || s === 'última' || s === 'last') {
      const m = moves[moves.length - 1];
      return m ? showSan(m) : '—';
    }
    return readBoard(t, S.fen, c) || t.sr_unknown;
  }

  function currentClocks() {
    const c = clockBase;
    let w = c.white_ms, b = c.black_ms;
    if (c.running) {
      const used = Math.max(0, performance.now() - c.at - (c.delay_ms || 0));
      if (c.running === 'white') w -= used; else b -= used;
    }
    return [w, b];
  }

  function tick() {
    if (clockBase) {
      const [w, b] = currentClocks();
      const top = orientation === 'white' ? 'black' : 'white';
      for (const [el, side] of [[clockTop, top], [clockBottom, top === 'white' ? 'black' : 'white']]) {
        const ms = side === 'white' ? w : b;
        const text = fmtClock(ms);
        if (el.textContent !== text) el.textContent = text;
        el.classList.toggle('low', ms < 20000);
        el.classList.toggle('running', clockBase.running === side);
      }
    }
    requestAnimationFrame(tick);
  }

  function renderMoves() {
    const btn = (k) => (k === null ? h('span', { class: 'mv-empty' }, '…') : h('button', {
      type: 'button', class: `mv${(review === null ? moves.length - 1 : review) === k ? ' current' : ''}`, 'data-ply': k,
      onclick: () => goReview(k),
    }, showSan(moves[k])));
    moveList.replaceChildren(...rows(moves.length, S.start_fen).map((r) => h('li', {}, h('span', { class: 'num' }, `${r.num}.`), btn(r.w), r.b === null ? '' : btn(r.b))));
    const cur = moveList.querySelector('.current');
    if (cur) keepInList(moveList, cur);
  }

  // Scrolls the move list (its own box) so that `item` shows, and nothing
  // else: `scrollIntoView` would scroll the page too, and on a phone, where
  // the list is below the board, every move pushed the board up.
  function keepInList(list, item) {
    const box = list.getBoundingClientRect();
    const it = item.getBoundingClientRect();
    if (it.top < box.top) list.scrollTop -= box.top - it.top;
    else if (it.bottom > box.bottom) list.scrollTop += it.bottom - box.bottom;
  }

  async function goReview(k) {
    if (k === moves.length - 1) { review = null; render(); return; }
    try {
      if (!positions || positions.moves.length < moves.length) positions = await api('GET', `/web/api/games/${id}/positions`);
      review = k;
      const p = positions.moves[k];
      cg.set({ fen: p.fen, lastMove: [p.uci.slice(0, 2), p.uci.slice(2, 4)], check: false, movable: { color: undefined, dests: new Map() } });
      reviewBar.hidden = false;
      renderMoves();
    } catch (e) { showError(e); }
  }

  function button(idAttr, label, onclick, show) {
    return h('button', { type: 'button', id: idAttr, onclick, hidden: !show }, label);
  }

  function renderControls() {
    const playing = S.status === 'playing';
    const opp = you === 'white' ? 'black' : 'white';
    const kids = [];
    if (you) {
      const myTurn = playing && S.turn === you;
      kids.push(
        button('resign', t.resign, () => { if (srMode() || window.confirm(t.confirm_resign)) send({ t: 'resign' }); }, playing && !S.can_abort),
        button('abort', t.abort, () => send({ t: 'abort' }), playing && S.can_abort),
        button('offer-draw', t.offer_draw, () => send({ t: 'offer_draw' }), playing && S.draw_offer !== you && S.draw_offer !== opp),
        button('accept-draw', t.accept_draw, () => send({ t: 'accept_draw' }), playing && S.draw_offer === opp),
        button('decline-draw', t.decline_draw, () => send({ t: 'decline_draw' }), playing && S.draw_offer === opp),
        button('claim-draw', t.claim_draw, () => send({ t: 'claim_draw' }), playing && myTurn && (S.claimable || []).length > 0),
        button('takeback', t.takeback, () => send({ t: 'takeback' }), playing && !S.clock && S.plies > 0 && !S.takeback_offer),
        button('accept-takeback', t.accept_takeback, () => send({ t: 'takeback_answer', accept: true }), playing && S.takeback_offer === opp),
        button('decline-takeback', t.decline_takeback, () => send({ t: 'takeback_answer', accept: false }), playing && S.takeback_offer === opp),
        button('claim-win', t.claim_win, () => send({ t: 'claim_abandoned', result: 'win' }), playing && S.abandon_claimable_by === you),
        button('claim-abandon-draw', t.claim_abandon_draw, () => send({ t: 'claim_abandoned', result: 'draw' }), playing && S.abandon_claimable_by === you),
        button('rematch', t.rematch, () => send({ t: 'rematch' }), S.status === 'over' && !S.rematch_game && S.result !== '*' && S.rematch_offer !== you),
        button('cancel-premove', t.cancel_premove, () => { cg.cancelPremove(); }, premoveSet));
      // Adjournment and the sealed move.
      const people = S.white.kind === 'human' && S.black.kind === 'human';
      kids.push(
        button('offer-adjourn', t.adjourn_offer, () => send({ t: 'offer_adjourn' }),
          playing && people && !S.tournament && S.plies >= 2 && !S.sealing && !S.adjourn_offer),
        button('accept-adjourn', t.adjourn_accept, () => send({ t: 'accept_adjourn' }), playing && !S.sealing && S.adjourn_offer === opp),
        button('decline-adjourn', t.adjourn_decline, () => send({ t: 'decline_adjourn' }), playing && !S.sealing && S.adjourn_offer === opp),
        button('resume', t.adjourn_resume, () => send({ t: 'resume' }), S.status === 'adjourned' && !(S.resume_ready || []).includes(you)));
      const cm = (S.claim_moves || []);
      const chosen = $('#claim-move') && $('#claim-move').value;
      if (playing && myTurn && cm.length) {
        kids.push(h('span', { class: 'claim-move' },
          h('label', { for: 'claim-move' }, t.claim_with_move, ' '),
          h('select', { id: 'claim-move' }, cm.map((c) => h('option', { value: c.uci, selected: c.uci === chosen }, LANG === 'es' ? (c.san_es || c.san) : c.san))),
          h('button', { type: 'button', id: 'claim-with-move', onclick: () => send({ t: 'claim_draw', move: $('#claim-move').value }) }, t.claim_draw)));
      }
    }
    kids.push(button('flip', t.flip, () => { flipped = !flipped; render(); }, true));
    if (S.rematch_game) kids.push(h('a', { href: `/partida/${S.rematch_game}`, id: 'rematch-link', class: 'button' }, t.rematch));
    const focused = document.activeElement && document.activeElement.id;
    controls.replaceChildren(...kids);
    if (focused && document.getElementById(focused) && controls.contains(document.getElementById(focused))) document.getElementById(focused).focus();
  }

  function statusText() {
    if (S.status === 'waiting') return t.waiting;
    if (S.status === 'adjourned') return adjournedText();
    // The process that ran the game is gone and another takes it over: no
    // moves until the next state (docs/protocol.md, "state").
    if (S.status === 'resuming') return t.resuming;
    if (S.status === 'over') {
      const opp = you === 'white' ? 'black' : 'white';
      if (you && S.rematch_offer === opp && !S.rematch_game) return `${t.game_over}. ${t.rematch_offered}`;
      if (you && S.rematch_offer === you && !S.rematch_game) return `${t.game_over}. ${t.rematch_sent}`;
      return t.game_over;
    }
    const parts = [S.turn === 'white' ? t.turn_white : t.turn_black];
    if (you && S.turn === you) parts[0] = `${parts[0]} — ${t.your_turn}`;
    if (S.in_check) parts.push(t.check);
    if (you) {
      const opp = you === 'white' ? 'black' : 'white';
      const cl = S.claimable || [];
      if (S.turn === you) cl.forEach((c) => parts.push(t.claims[c] || c));
      if (S.turn === you && !cl.length && (S.claim_moves || []).length) parts.push(t.can_claim_with_move);
      if (!S[opp].connected) parts.push(t.opponent_gone);
      if (S.draw_offer === opp) parts.push(t.draw_offered_by_opp);
      if (S.draw_offer === you) parts.push(t.draw_offered_by_you);
      if (S.takeback_offer === opp) parts.push(t.takeback_asked);
      if (S.abandon_claimable_by === you) parts.push(t.abandon_claimable);
      if (S.adjourn_offer === opp && !S.sealing) parts.push(t.adjourn_offered_by_opp);
      if (S.adjourn_offer === you && !S.sealing) parts.push(t.adjourn_offered_by_you);
    }
    if (S.sealing) parts.push(S.sealing === you ? t.sealing_you : t.sealing_other(S.sealing === 'white' ? t.white : t.black));
    return parts.join('. ');
  }

  // An adjourned game: who sealed, who is back and ready.
  function adjournedText() {
    const parts = [t.adjourned_by(S.sealed_by === 'white' ? t.white : t.black)];
    const ready = S.resume_ready || [];
    if (you && ready.includes(you)) parts.push(t.adjourn_waiting_opp);
    else if (you) parts.push(t.adjourn_press_resume);
    const opp = you === 'white' ? 'black' : 'white';
    if (you && ready.includes(opp)) parts.push(t.adjourn_opp_ready);
    return parts.join('. ');
  }

  function playerName(side) {
    const p = S[side];
    return p.kind === 'engine' ? t.engine_level(p.level, levelName(p.level)) : shownName(p.name);
  }

  // The name links to the player's page (not an engine's, not a guest's).
  function playerLabel(side) {
    const p = S[side];
    const name = p.kind === 'engine' ? playerName(side) : playerLink(p.name);
    return [`${side === 'white' ? '○' : '●'} `, name, ratingLabel(p), S[side].connected ? '' : ' ⚠'];
  }

  // A rated game: each side's rating when it began ("1500?" while
  // provisional) and, once the finished game is applied, the change.
  function ratingLabel(p) {
    if (p.rating === null || p.rating === undefined) return '';
    const d = p.rating_diff;
    const diff = d === null || d === undefined ? null
      : h('span', { class: `diff ${d > 0 ? 'up' : d < 0 ? 'down' : ''}` }, ` ${d > 0 ? `+${d}` : d < 0 ? `−${-d}` : '±0'}`);
    return h('span', { class: 'player-rating' }, ` ${p.rating}${p.provisional ? '?' : ''}`, diff);
  }

  // The header says who one plays as; a spectator plays nothing, so it names
  // the two players instead. (A visitor to a challenge not yet accepted may
  // still take the free seat: the header keeps the name they would play as.)
  function renderHeader() {
    const el = $('#me');
    if (!el) return;
    if (you) el.textContent = `${t.playing_as} ${playerName(you)}`;
    else if (S.status !== 'waiting') el.textContent = t.watching(playerName('white'), playerName('black'));
  }

  function render() {
    orientation = (you || 'white');
    if (flipped) orientation = orientation === 'white' ? 'black' : 'white';
    const top = orientation === 'white' ? 'black' : 'white';
    nameTop.replaceChildren(...playerLabel(top));
    nameBottom.replaceChildren(...playerLabel(orientation));
    renderHeader();
    const playing = S.status === 'playing';
    if (review === null) {
      reviewBar.hidden = true;
      const lm = S.last_move ? [S.last_move.uci.slice(0, 2), S.last_move.uci.slice(2, 4)] : undefined;
      // viewOnly first: an orientation change rebuilds the board and binds
      // its mouse and touch handlers only if the board is not view-only.
      if (cg.state.viewOnly !== !you) cg.set({ viewOnly: !you });
      cg.set({
        fen: S.fen,
        orientation,
        turnColor: S.turn,
        lastMove: lm,
        check: S.in_check ? S.turn : false,
        movable: {
          color: playing && you ? you : undefined,
          dests: playing && you && S.turn === you ? destsMap(S.legal) : new Map(),
        },
        premovable: { enabled: playing && !!you && !S.sealing },
      });
      if (!lm) cg.set({ lastMove: undefined });
    } else {
      cg.set({ orientation });
    }
    clockTop.hidden = clockBottom.hidden = !S.clock;
    if (S.status === 'over' && you) followYourGame();
    clockBase = S.clock ? { ...S.clock, at: performance.now() } : null;
    ratedNote.hidden = !S.rated;
    if (S.rated) ratedNote.textContent = t.pl.rated_game((t.perfs && t.perfs[S.perf]) || S.perf || '');
    if (S.tournament) {
      tnLink.hidden = false;
      tnLink.replaceChildren(h('a', { href: `/torneos/${encodeURIComponent(S.tournament.id)}` },
        `${t.tn.tournament} · ${t.tn.round} ${S.tournament.round} · ${t.tn.board} ${S.tournament.board}`));
    }
    if (S.variant === 'chess960') {
      variantLine.hidden = false;
      variantLine.textContent = S.chess960_position === null || S.chess960_position === undefined
        ? t.variants.chess960 : `${t.variants.chess960} · ${t.position_number(S.chess960_position)}`;
    }
    openingLine.hidden = !S.opening;
    openingLine.textContent = S.opening ? `${t.opening}: ${openingText(S.opening)}` : '';
    status.textContent = statusText();
    if (S.status === 'over' && S.end_text) {
      endMsg.hidden = false;
      // The library's wording already ends with the result ("… (1-0)").
      endMsg.replaceChildren(h('strong', {}, S.end_text[LANG] || S.end_text.es));
      if (!$('#analyse-game')) endMsg.after(h('p', { class: 'analyse-row' }, analyseButton(id)));
    } else endMsg.hidden = true;
    moveForm.hidden = !you || S.status !== 'playing' || !!S.sealing;
    sealBox.hidden = !(you && S.status === 'playing' && S.sealing === you);
    if (S.status === 'adjourned' || S.sealing) envelopeNote.hidden = true;
    if (S.status === 'waiting') {
      const link = `${location.origin}/partida/${id}`;
      if (!$('#wait-link')) status.after(h('p', { id: 'wait-box' }, h('input', { id: 'wait-link', readonly: true, value: link, size: 40, 'aria-label': t.challenge_link })));
      if (!you && !$('#join')) {
        status.after(h('button', {
          id: 'join', type: 'button',
          onclick: async () => {
            try { const seat = await api('POST', `/api/games/${id}/join`, {}); keepSeat(seat); secret = seat.secret; reconnect(); } catch (e) { showError(e); }
          },
        }, t.join));
      }
    } else {
      $('#wait-box') && $('#wait-box').remove();
      $('#join') && $('#join').remove();
    }
    if (!you && S.status !== 'waiting' && !$('#spectator-note') && opened) status.before(h('p', { id: 'spectator-note', class: 'muted' }, t.spectator));
    if (you && $('#spectator-note')) $('#spectator-note').remove();
    renderControls();
    renderMoves();
    // The board may have moved (clocks shown or hidden, notes above it):
    // chessground caches its box, so let it measure again.
    requestAnimationFrame(() => { if (cg.state.dom && cg.state.dom.bounds.clear) cg.state.dom.bounds.clear(); });
  }

  function onMessage(m) {
    if (m.t === 'ping') { ws.send(JSON.stringify({ t: 'pong', n: m.n })); return; }
    if (m.t === 'error') {
      // A refused move is not sent again.
      pendingMove = null;
      showError(m[LANG] || m.es);
      render();
      return;
    }
    if (m.t === 'ack') { showError(null); return; }
    if (m.t === 'rematch_seat') { keepSeat(m); location.href = `/partida/${m.game}`; return; }
    if (m.t === 'state') {
      you = m.you || null;
      S = m;
      moves = m.moves || [];
      lastSeenPly = moves.length;
      render();
      if (resendOnState) { resendOnState = false; resendPending(); }
      return;
    }
    if (m.t !== 'event') return;
    const before = S.fen;
    S = { ...m, you };
    const ev = m.event;
    const d = m.data || {};
    if (ev === 'move') {
      if (pendingMove && d.ply >= pendingMove.ply) pendingMove = null;
      if (d.ply === moves.length) moves.push(d);
      else if (d.ply < moves.length) moves = moves.slice(0, d.ply).concat([d]);
      else { send({ t: 'state' }); }
      positions = null;
      render();
      log.seen[d.ply] = now();
      if (srMode()) say(moveWords(t, before, d.uci, d.san));
      if (you && S.status === 'playing' && S.turn === you) cg.playPremove();
      lastSeenPly = moves.length;
    } else if (ev === 'takeback') {
      moves = moves.slice(0, d.plies);
      positions = null;
      render();
    } else {
      render();
      if (ev === 'end' && S.end_text) say(S.end_text[LANG] || S.end_text.es);
      if (ev === 'presence' && you && d.seat !== you && srMode()) say(d.connected ? t.opponent_back : t.opponent_gone);
      if (ev === 'draw_declined' && d.by !== you) status.textContent = `${status.textContent}. ${t.draw_declined}`;
      if (ev === 'claim_rejected') status.textContent = d[LANG] || d.es || status.textContent;
      if (ev === 'adjourn_declined' && d.by !== you) status.textContent = `${status.textContent}. ${t.adjourn_declined}`;
      if (ev === 'sealing' && d.by === you) { $('#seal-input').value = ''; $('#seal-input').focus(); }
      if (ev === 'envelope_opened') {
        envelopeNote.hidden = false;
        envelopeNote.textContent = d.played ? t.envelope_played(d.sealed_move) : t.envelope_forfeit(d.sealed_move, d[LANG] || d.es || '');
        say(envelopeNote.textContent);
      }
    }
  }

  function reconnect() {
    if (ws) { ws.onclose = null; ws.close(); }
    connect();
  }

  function connect() {
    const q = secret ? `?seat=${encodeURIComponent(secret)}` : '';
    ws = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws/games/${id}${q}`);
    let thisOpened = false;
    ws.onopen = () => {
      thisOpened = true;
      if (opened) { conn.hidden = false; conn.classList.add('ok'); conn.textContent = t.reconnected; setTimeout(() => { conn.hidden = true; }, 1500); }
      opened = true;
      retries = 0;
      resendOnState = true;
      document.body.dataset.connected = '1';
    };
    ws.onmessage = (ev) => {
      let m;
      try { m = JSON.parse(ev.data); } catch { return; }
      onMessage(m);
    };
    ws.onclose = async () => {
      document.body.dataset.connected = '0';
      conn.hidden = false;
      conn.classList.remove('ok');
      conn.textContent = t.reconnecting;
      retries += 1;
      if (!thisOpened && secret && retries === 2) {
        // The seat secret was refused (another tab took the seat back): ask again.
        try { const seat = await api('POST', `/api/games/${id}/seat`, {}); keepSeat(seat); secret = seat.secret; } catch { secret = null; store.del(seatKey(id)); }
      }
      setTimeout(connect, Math.min(300 * 2 ** Math.min(retries, 5), 5000));
    };
  }

  document.addEventListener('keydown', (e) => {
    if (e.key === 'Escape') {
      cg.cancelPremove();
      if (pendingPromotion) { promo.hidden = true; pendingPromotion = null; render(); }
    }
  });

  render();
  requestAnimationFrame(tick);
  connect();
}

// ------------------------------------------------------------------ my games

// "Analizar la partida" (issue 27): asks the server to analyse a finished
// game (or finds the analysis already asked for) and opens its page.
function analyseButton(id) {
  return h('button', {
    type: 'button', id: 'analyse-game',
    onclick: async (e) => {
      e.target.disabled = true;
      try {
        const r = await api('POST', `/api/games/${encodeURIComponent(id)}/analysis`, {});
        location.href = `/analisis/${encodeURIComponent(r.analysis)}`;
      } catch (err) { e.target.disabled = false; showError(err); }
    },
  }, t.an.analyse_game);
}

// An opening as the server names it (`{eco, name_es, name_en, ply}`):
// "C60 Apertura española" in Spanish, the English name in English.
function openingText(o) {
  if (!o) return '';
  return `${o.eco} ${LANG === 'en' ? o.name_en : o.name_es}`;
}

function terminationText(id) {
  if (!id) return '';
  return t.terminations[id] || id;
}

async function myGames(main) {
  main.append(h('h1', {}, t.my_games));
  followYourGame();
  let data;
  try { data = await api('GET', '/api/me/games'); } catch (e) { showError(e); return; }
  const rows = (data.games || []);
  if (!rows.length) { main.append(h('p', { id: 'no-games' }, t.none_yet)); return; }
  main.append(h('table', { id: 'games', class: 'games' },
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, t.white), h('th', { scope: 'col' }, t.black), h('th', { scope: 'col' }, t.result),
      h('th', { scope: 'col' }, t.reason), h('th', { scope: 'col' }, t.opening), h('th', { scope: 'col' }, t.date), h('th', { scope: 'col' }, ''))),
    h('tbody', {}, rows.map((g) => h('tr', { 'data-game': g.game },
      h('td', {}, playerLink(g.white)), h('td', {}, playerLink(g.black)), h('td', {}, g.status === 'over' ? (g.result || '') : (g.status === 'adjourned' ? t.adjourned_short : t.in_progress)),
      h('td', {}, terminationText(g.termination)),
      h('td', { class: 'opening' }, openingText(g.opening)),
      h('td', {}, new Date(g.created_ms).toLocaleDateString(LANG)),
      h('td', {}, g.status === 'over'
        ? h('a', { href: `/mis-partidas/${g.game}`, class: 'open-game' }, t.open)
        : h('a', { href: `/partida/${g.game}` }, t.go_to_game)))))));
}

async function replay(main, id) {
  let P;
  try { P = await api('GET', `/web/api/games/${id}/positions`); } catch (e) { main.append(h('p', { class: 'error' }, t.not_found)); return; }
  let i = P.moves.length; // plies shown
  const boardEl = h('div', { id: 'board', class: 'board', role: 'img', 'aria-label': t.board });
  const info = h('p', { id: 'replay-pos', role: 'status', 'aria-live': 'polite' });
  const list = h('ol', { id: 'moves', class: 'moves' });
  const go = (k) => { i = Math.max(0, Math.min(P.moves.length, k)); show(); };
  main.append(h('h1', {}, `${t.replay}: ${shownName(P.white)} – ${shownName(P.black)} ${P.result || ''}`),
    h('p', {}, terminationText(P.termination)),
    h('p', { id: 'opening', class: 'muted', hidden: !P.opening }, P.opening ? `${t.opening}: ${openingText(P.opening)}` : ''),
    h('div', { class: 'game' },
      h('div', { class: 'board-col' }, h('div', { class: 'board-wrap' }, boardEl),
        h('div', { class: 'controls' },
          h('button', { type: 'button', id: 'first', onclick: () => go(0) }, t.first),
          h('button', { type: 'button', id: 'prev', onclick: () => go(i - 1) }, t.prev),
          h('button', { type: 'button', id: 'next', onclick: () => go(i + 1) }, t.next),
          h('button', { type: 'button', id: 'last', onclick: () => go(P.moves.length) }, t.last))),
      h('div', { class: 'side' }, info, h('p', { class: 'help' }, t.replay_help),
        h('p', {}, h('a', { id: 'pgn-es', href: `/api/games/${id}/pgn?lang=es`, download: `escaque-${id}-es.pgn` }, t.pgn_es), ' · ',
          h('a', { id: 'pgn-en', href: `/api/games/${id}/pgn`, download: `escaque-${id}-en.pgn` }, t.pgn_en)),
        h('p', {}, analyseButton(id)),
        list)));
  const cg = Chessground(boardEl, { viewOnly: true, coordinates: true, drawable: { enabled: false } });
  window.escaqueReplay = cg;
  function show() {
    const m = P.moves[i - 1];
    cg.set({ fen: m ? m.fen : P.start_fen, lastMove: m ? [m.uci.slice(0, 2), m.uci.slice(2, 4)] : undefined, check: m && m.check ? (m.fen.split(' ')[1] === 'w' ? 'white' : 'black') : false });
    info.textContent = m ? `${plyLabel(i - 1, P.start_fen)} ${showSan(m)}` : t.first;
    const btn = (j) => (j === null ? h('span', { class: 'mv-empty' }, '…') : h('button', { type: 'button', class: `mv${j === i - 1 ? ' current' : ''}`, onclick: () => go(j + 1) }, showSan(P.moves[j])));
    list.replaceChildren(...rows(P.moves.length, P.start_fen).map((r) => h('li', {}, h('span', { class: 'num' }, `${r.num}.`), btn(r.w), r.b === null ? '' : btn(r.b))));
  }
  document.addEventListener('keydown', (e) => {
    if (e.target && (e.target.tagName === 'INPUT' || e.target.tagName === 'SELECT')) return;
    if (e.key === 'ArrowLeft') { go(i - 1); e.preventDefault(); }
    if (e.key === 'ArrowRight') { go(i + 1); e.preventDefault(); }
    if (e.key === 'Home') { go(0); e.preventDefault(); }
    if (e.key === 'End') { go(P.moves.length); e.preventDefault(); }
  });
  show();
}

// ------------------------------------------------------------------ start

async function main() {
  applyTheme();
  let me = null;
  try { me = await api('GET', '/api/me'); } catch { me = null; }
  const el = frame(me);
  const path = location.pathname.replace(/\/+$/, '') || '/';
  let m;
  if (path === '/') await home(el, me);
  else if ((m = path.match(/^\/partida\/([A-Za-z0-9]+)$/))) await game(el, m[1]);
  else if (path === '/mis-partidas') await myGames(el);
  else if ((m = path.match(/^\/mis-partidas\/([A-Za-z0-9]+)$/))) await replay(el, m[1]);
  else if (path.startsWith('/jugador/')) {
    // The player's page loads its script only when it is opened.
    const { route } = await import('./jugador.js');
    await route(path, el, me, { h, api, t, LANG, showError, shownName, $, playerLink, openingText });
  } else if (path === '/torneos' || path.startsWith('/torneos/')) {
    // The tournament pages load their script only when they are opened.
    const { route } = await import('./torneo.js');
    await route(path, el, me, { h, api, t, LANG, showError, shownName, Chessground, fmtClock, $, keepSeat });
  } else if (/^\/clases\/[A-Za-z0-9]+\/(torneo|progreso)$/.test(path)) {
    // A class's tournament form and progress table (issue 26).
    const { route } = await import('./progreso.js');
    await route(path, el, me, { h, api, t, LANG, showError, shownName, Chessground, fmtClock, $, keepSeat, playerLink });
  } else if (/^\/clases\/[A-Za-z0-9]+\/simultanea$/.test(path) || path.startsWith('/simul/')) {
    // Simultaneous exhibitions (issue 26).
    const { route } = await import('./simul.js');
    await route(path, el, me, { h, api, t, LANG, showError, shownName, Chessground, fmtClock, $, keepSeat, playerLink, say });
  } else if (path === '/problemas') {
    // The puzzle trainer (issue 56).
    const { route } = await import('./problemas.js');
    await route(path, el, me, { h, api, t, LANG, showError, shownName, Chessground, $ });
  } else if (path === '/aprender' || path.startsWith('/aprender/')) {
    // Aprende a jugar, the rules course (issue 55).
    const { route } = await import('./aprender.js');
    await route(path, el, me, { h, api, t, LANG, showError, shownName, Chessground, $, say });
  } else if (path === '/analisis' || path.startsWith('/analisis/')) {
    // Analysis of games and positions (issue 27).
    const { route } = await import('./analisis.js');
    await route(path, el, me, { h, api, t, LANG, showError, shownName, Chessground, $, playerLink });
  } else if (/^\/clases\/[A-Za-z0-9]+\/tareas(\/|$)/.test(path) || path.startsWith('/familia/')) {
    // Homework: the teacher's grid and form, the pupil's items, a family's page (issue 57).
    const { route } = await import('./tareas.js');
    await route(path, el, me, { h, api, t, LANG, showError, shownName, Chessground, $, keepSeat, say });
  } else if (path === '/equipos' || /^\/equipos\/[A-Za-z0-9_-]+$/.test(path)) {
    // Team tournaments: the create form and the organiser's desk (issue 59).
    const { route } = await import('./equipos.js');
    await route(path, el, me, { h, api, t, LANG, showError, shownName, $ });
  } else if (path === '/clases' || path.startsWith('/clases/') || path.startsWith('/clase/')) {
    // Classes: the teacher's pages, the pupil's, the class-code login (issue 26).
    const { route } = await import('./clases.js');
    await route(path, el, me, { h, api, t, LANG, showError, shownName, Chessground, fmtClock, $, keepSeat, playerLink });
  }
  document.body.dataset.ready = '1';
}

main();
