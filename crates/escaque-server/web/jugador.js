// escaque's player page (/jugador/{name}): the ratings per pool with a graph
// of their history, the score, the recent games and a head-to-head against
// another player. Everything comes from /api/players/…; the graph is an SVG
// drawn here (no library). Every name is put in with textContent (the `h`
// helper), never as markup.

let C; // the shared helpers from app.js: { h, api, t, LANG, showError, shownName, $, playerLink, openingText }

const tp = () => C.t.pl;
const SVG = 'http://www.w3.org/2000/svg';

function s(tag, attrs, ...kids) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) if (v !== null && v !== undefined) el.setAttribute(k, v);
  for (const kid of kids.flat()) if (kid !== null && kid !== undefined) el.append(kid instanceof Node ? kid : document.createTextNode(String(kid)));
  return el;
}

const perfName = (p) => (C.t.perfs && C.t.perfs[p]) || p;
/** A rating as shown: `1500`, or `1500?` while provisional. */
export const ratingText = (r, provisional) => `${r}${provisional ? '?' : ''}`;
/** A rating change as shown: `+12`, `−12` (a minus sign), `±0`. */
export const diffText = (d) => (d > 0 ? `+${d}` : d < 0 ? `−${-d}` : '±0');

function dateText(ms, withYear) {
  return new Date(ms).toLocaleDateString(C.LANG, withYear ? { day: 'numeric', month: 'short', year: 'numeric' } : { day: 'numeric', month: 'short' });
}
const timeText = (ms) => new Date(ms).toLocaleTimeString(C.LANG, { hour: '2-digit', minute: '2-digit' });
const fullText = (ms) => `${dateText(ms, true)} ${timeText(ms)}`;

/** Round numbers for the rating axis: a step giving at most five lines. */
function ratingTicks(lo, hi) {
  const span = hi - lo;
  const step = [10, 25, 50, 100, 200, 250, 500, 1000].find((st) => span / st <= 4) || 1000;
  const first = Math.ceil(lo / step) * step;
  const out = [];
  for (let v = first; v <= hi; v += step) out.push(v);
  return out;
}

/**
 * The history of one pool as an SVG `width` pixels wide: a rating axis with
 * round values, a time axis with dates (or hours, within one day), the line
 * and one point per game. A point tapped, clicked or focused shows its date,
 * rating and game in `label`.
 */
function drawGraph(points, width, label, perf) {
  const H = Math.round(Math.max(190, Math.min(300, width * 0.55)));
  const m = { l: 46, r: 14, t: 14, b: 30 };
  const w = width - m.l - m.r;
  const hgt = H - m.t - m.b;
  const ratings = points.map((p) => p.rating);
  let lo = Math.min(...ratings), hi = Math.max(...ratings);
  if (hi - lo < 100) { const mid = (hi + lo) / 2; lo = mid - 50; hi = mid + 50; }
  const pad = (hi - lo) * 0.08;
  lo -= pad; hi += pad;
  const t0 = points[0].at_ms, t1 = points[points.length - 1].at_ms;
  const x = (ms) => m.l + (t1 > t0 ? ((ms - t0) / (t1 - t0)) * w : w / 2);
  const y = (r) => m.t + (1 - (r - lo) / (hi - lo)) * hgt;
  const first = ratings[0], last = ratings[ratings.length - 1];
  const svg = s('svg', {
    class: 'rating-graph', width, height: H, viewBox: `0 0 ${width} ${H}`, role: 'img',
    'data-perf': perf,
    'aria-label': tp().graph_label(perfName(perf), first, last, points.length),
  });
  // Rating axis: lines across, values at the left.
  for (const v of ratingTicks(lo, hi)) {
    svg.append(s('line', { class: 'grid', x1: m.l, x2: m.l + w, y1: y(v), y2: y(v) }),
      s('text', { class: 'tick y-tick', x: m.l - 6, y: y(v) + 4, 'text-anchor': 'end' }, v));
  }
  // Time axis: up to four dates, spread out (or hours, within one day).
  const sameDay = new Date(t0).toDateString() === new Date(t1).toDateString();
  const sameYear = new Date(t0).getFullYear() === new Date(t1).getFullYear();
  const fits = Math.max(1, Math.min(4, Math.floor(w / 90)));
  const marks = t1 > t0 ? [...Array(fits + 1)].map((_, i) => t0 + ((t1 - t0) * i) / fits) : [t0];
  svg.append(s('line', { class: 'axis', x1: m.l, x2: m.l + w, y1: m.t + hgt, y2: m.t + hgt }),
    s('line', { class: 'axis', x1: m.l, x2: m.l, y1: m.t, y2: m.t + hgt }));
  // A label equal to the one before it (games minutes apart) is left out.
  const labelOf = (ms) => (sameDay ? timeText(ms) : dateText(ms, !sameYear));
  const shown = marks.filter((ms, i) => i === 0 || labelOf(ms) !== labelOf(marks[i - 1]));
  shown.forEach((ms, i) => {
    const anchor = shown.length === 1 ? (marks.length === 1 ? 'middle' : 'start') : i === 0 ? 'start' : i === shown.length - 1 ? 'end' : 'middle';
    svg.append(s('text', { class: 'tick x-tick', x: x(ms), y: m.t + hgt + 18, 'text-anchor': anchor }, labelOf(ms)));
  });
  svg.append(s('polyline', { class: 'line', points: points.map((p) => `${x(p.at_ms).toFixed(1)},${y(p.rating).toFixed(1)}`).join(' ') }));
  const show = (p, dot) => {
    svg.querySelectorAll('.pt.on').forEach((d) => d.classList.remove('on'));
    dot.classList.add('on');
    label.replaceChildren(`${fullText(p.at_ms)} · ${tp().rating} ${p.rating} · `,
      C.h('a', { href: `/mis-partidas/${encodeURIComponent(p.game)}` }, tp().open_game));
  };
  points.forEach((p, i) => {
    const dot = s('circle', {
      class: 'pt', cx: x(p.at_ms).toFixed(1), cy: y(p.rating).toFixed(1), r: 5, tabindex: 0,
      'data-rating': p.rating, 'data-at': p.at_ms, 'data-game': p.game, 'data-index': i,
      'aria-label': `${fullText(p.at_ms)}: ${p.rating}`,
    }, s('title', {}, `${fullText(p.at_ms)} · ${p.rating}`));
    dot.addEventListener('click', () => show(p, dot));
    dot.addEventListener('focus', () => show(p, dot));
    svg.append(dot);
  });
  // The latest rating, written beside the last point.
  const lp = points[points.length - 1];
  const lx = x(lp.at_ms);
  svg.append(s('text', { class: 'last-label', x: lx > m.l + w - 40 ? lx - 8 : lx + 8, y: y(lp.rating) - 9, 'text-anchor': lx > m.l + w - 40 ? 'end' : 'start' }, lp.rating));
  return svg;
}

function gameRow(g, vsButton) {
  const { h, t } = C;
  const opp = g.opponent_kind === 'engine'
    ? t.engine_level(g.opponent_level, t.levels[g.opponent_level - 1] || '')
    : (g.opponent_account ? C.playerLink(g.opponent) : C.shownName(g.opponent));
  const kind = g.rated ? `${perfName(g.perf)} · ${tp().rated}` : tp().casual;
  const diff = g.rating_diff === null || g.rating_diff === undefined ? '' : diffText(g.rating_diff);
  return h('tr', { 'data-game': g.game, class: `score-${g.score}` },
    h('td', { class: 'opt' }, dateText(g.created_ms, true)),
    h('td', { class: 'side-mark', title: g.color === 'white' ? t.white : t.black }, g.color === 'white' ? '○' : '●'),
    h('td', { class: 'opp' }, opp, g.opponent_rating ? h('span', { class: 'muted' }, ` (${g.opponent_rating})`) : ''),
    h('td', { class: 'res' }, h('a', { href: `/mis-partidas/${encodeURIComponent(g.game)}`, class: 'open-game', 'aria-label': `${tp().open_game}: ${tp().scores[g.score] || ''} ${g.result || ''}` },
      h('span', { class: 'score-word' }, tp().scores[g.score] || ''), ' ', h('span', { class: 'result' }, g.result || ''))),
    h('td', { class: 'opt' }, `${g.time_control || t.no_clock} · ${kind}`),
    h('td', { class: 'opt opening' }, C.openingText(g.opening)),
    h('td', { class: `diff${g.rating_diff > 0 ? ' up' : g.rating_diff < 0 ? ' down' : ''}` }, diff),
    vsButton ? h('td', {}, g.opponent_account
      ? h('button', { type: 'button', class: 'secondary vs', title: tp().h2h_with(g.opponent), 'aria-label': tp().h2h_with(g.opponent), onclick: () => vsButton(g.opponent) }, tp().h2h_short)
      : '') : null);
}

function gamesTable(games, vsButton, id) {
  const { h, t } = C;
  return h('table', { class: 'games pl-games', id },
    h('thead', {}, h('tr', {},
      h('th', { scope: 'col', class: 'opt' }, t.date), h('th', { scope: 'col' }, h('span', { class: 'visually-hidden' }, t.color)),
      h('th', { scope: 'col' }, tp().opponent), h('th', { scope: 'col' }, t.result), h('th', { scope: 'col', class: 'opt' }, tp().pace),
      h('th', { scope: 'col', class: 'opt' }, t.opening),
      h('th', { scope: 'col' }, tp().change), vsButton ? h('th', { scope: 'col' }, h('span', { class: 'visually-hidden' }, tp().h2h)) : null)),
    h('tbody', {}, games.map((g) => gameRow(g, vsButton))));
}

const scoreLine = (sc) => tp().score_line(sc.games, sc.wins, sc.draws, sc.losses);

async function page(main, name) {
  const { h, api } = C;
  main.classList.add('pl');
  let P;
  try { P = await api('GET', `/api/players/${encodeURIComponent(name)}`); } catch (e) {
    main.append(h('h1', {}, C.shownName(name)), h('p', { id: 'player-missing', class: 'error' }, e.status === 404 ? tp().not_found : e.message));
    return;
  }
  document.title = `${P.name} — escaque`;
  const head = h('div', { class: 'pl-head' }, h('h1', { id: 'player-name' }, P.name),
    h('p', { id: 'player-score' }, scoreLine(P.score)),
    P.you && P.managed ? h('p', { class: 'muted' }, tp().private_note) : '');
  main.append(head);

  // Ratings: one button per pool; the chosen pool's history is drawn below.
  const ratings = h('section', { class: 'card pl-ratings', 'aria-labelledby': 'h-ratings' }, h('h2', { id: 'h-ratings' }, tp().ratings));
  main.append(ratings);
  if (!P.ratings.length) ratings.append(h('p', { id: 'no-ratings', class: 'muted' }, tp().no_ratings));
  else {
    const pools = h('div', { class: 'pools', role: 'group', 'aria-label': tp().ratings });
    const graphBox = h('div', { class: 'graph-box', id: 'graph' });
    const label = h('p', { class: 'graph-point muted', id: 'graph-point', 'aria-live': 'polite' });
    let chosen = [...P.ratings].sort((a, b) => b.games - a.games)[0].perf;
    const draw = () => {
      const r = P.ratings.find((x) => x.perf === chosen);
      pools.querySelectorAll('button').forEach((b) => b.setAttribute('aria-pressed', b.dataset.perf === chosen ? 'true' : 'false'));
      label.textContent = '';
      if (!r || !r.history.length) { graphBox.replaceChildren(h('p', { class: 'muted' }, tp().no_history)); return; }
      const width = Math.max(260, Math.min(900, graphBox.clientWidth || ratings.clientWidth - 32));
      graphBox.replaceChildren(h('h3', { class: 'graph-title' }, tp().history_of(perfName(r.perf))), drawGraph(r.history, width, label, r.perf));
    };
    for (const r of P.ratings) {
      pools.append(h('button', {
        type: 'button', class: 'pool', 'data-perf': r.perf, 'aria-pressed': 'false',
        onclick: () => { chosen = r.perf; draw(); },
      }, h('span', { class: 'pool-name' }, perfName(r.perf)),
      h('strong', { class: 'pool-rating' }, ratingText(r.rating, r.provisional)),
      h('span', { class: 'pool-games' }, tp().games_n(r.games))));
    }
    ratings.append(pools, graphBox, label, h('p', { class: 'help' }, tp().provisional_help));
    draw();
    let timer = null;
    window.addEventListener('resize', () => { clearTimeout(timer); timer = setTimeout(draw, 150); });
  }

  // Head-to-head: a name typed, or an opponent picked in the games below.
  const vsOut = h('div', { id: 'h2h-out', 'aria-live': 'polite' });
  const vsInput = h('input', { id: 'h2h-name', list: 'h2h-list', autocomplete: 'off', required: true, size: 16 });
  const opponents = [...new Set(P.games.filter((g) => g.opponent_account).map((g) => g.opponent))];
  const runVs = async (other) => {
    vsInput.value = other;
    try {
      const V = await api('GET', `/api/players/${encodeURIComponent(P.name)}/vs/${encodeURIComponent(other)}`);
      const url = new URL(location.href);
      url.searchParams.set('vs', V.opponent);
      history.replaceState(null, '', url);
      vsOut.replaceChildren(h('p', { id: 'h2h-score' }, tp().h2h_line(P.name, C.playerLink(V.opponent), scoreLine(V.score))),
        V.games.length ? gamesTable(V.games, null, 'h2h-games') : h('p', { class: 'muted' }, tp().h2h_none));
    } catch (e) {
      vsOut.replaceChildren(h('p', { class: 'error' }, e.status === 404 ? tp().not_found : e.message));
    }
  };
  main.append(h('section', { class: 'card pl-h2h', 'aria-labelledby': 'h-h2h' }, h('h2', { id: 'h-h2h' }, tp().h2h),
    h('form', { id: 'h2h-form', onsubmit: (e) => { e.preventDefault(); if (vsInput.value.trim()) runVs(vsInput.value.trim()); } },
      h('label', {}, tp().h2h_against, ' ', vsInput),
      h('datalist', { id: 'h2h-list' }, opponents.map((o) => h('option', { value: o }))),
      h('button', { type: 'submit', id: 'h2h-go' }, tp().h2h_go)),
    vsOut));

  // Recent games.
  const recent = h('section', { class: 'card pl-recent', 'aria-labelledby': 'h-recent' }, h('h2', { id: 'h-recent' }, tp().recent));
  recent.append(P.games.length ? gamesTable(P.games, (o) => { runVs(o); document.getElementById('h2h-out').scrollIntoView({ block: 'nearest' }); }, 'player-games')
    : h('p', { class: 'muted', id: 'no-games' }, tp().no_games));
  main.append(recent);
  const vs = new URLSearchParams(location.search).get('vs');
  if (vs) await runVs(vs);
}

export async function route(path, main, me, ctx) {
  C = ctx;
  const m = path.match(/^\/jugador\/([^/]+)$/);
  if (!m) return false;
  let name;
  try { name = decodeURIComponent(m[1]); } catch { name = m[1]; }
  await page(main, name);
  return true;
}
