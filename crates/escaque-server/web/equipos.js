// Team tournaments in the browser (issue 59, teams):
//   /equipos          the create form (Swiss FIDE C.04.6, round robin, double
//                     round robin, Scheveningen; match points; school rules)
//   /equipos/{id}     the organiser's desk (teams with ordered rosters, each
//                     round's line-ups, pairing, results by board with the
//                     phones' entries — conflicts first — and overrides,
//                     whole-match forfeits, standings with the team
//                     tie-breaks, the printouts and the round's QR page);
//                     anyone else sees the standings and the rounds.
// The server pairs, scores and ranks (escaque_torneo::teams); this page only
// shows its view (GET /api/equipos/{id}) and sends what the organiser does
// (docs/protocol.md "Team tournaments"). Refusals are the server's own
// Spanish or English words. Names go in with textContent (the `h` helper).

let C; // the shared helpers from app.js
let X; // this page's texts

/** Results an organiser may type, White–Black, as the server reads them. */
const RESULTS = ['1-0', '½-½', '0-1', '+-', '-+', '--'];
const SYSTEMS = ['suizo', 'liguilla', 'liguilla_doble', 'scheveningen', 'scheveningen_doble'];

const TEXTS = {
  es: {
    title: 'Torneos por equipos',
    create: 'Nuevo torneo por equipos',
    name: 'Nombre del torneo',
    system: 'Sistema',
    systems: {
      suizo: 'Suizo por equipos (FIDE C.04.6)', liguilla: 'Liguilla (todos contra todos)',
      liguilla_doble: 'Liguilla a doble vuelta', scheveningen: 'Scheveningen (dos equipos)',
      scheveningen_doble: 'Scheveningen a doble vuelta',
    },
    rounds: 'Rondas',
    baku: 'Aceleración Bakú (FIDE C.04.7)',
    rounds_help: 'Solo el suizo; una liguilla y un Scheveningen tienen las rondas que da su sistema.',
    boards: 'Tableros por encuentro',
    scoring: 'Puntos de encuentro (victoria/empate/derrota)',
    city: 'Ciudad',
    school: 'Normas escolares',
    school_max: 'Como mucho, equipos por centro',
    school_categories: 'Jugadores por categoría en cada lista',
    school_categories_help: 'Por ejemplo «F:1, sub12:2»: cada lista necesita una jugadora F y dos sub12.',
    school_counted: 'Equipos de cada centro que suman en la clasificación por centros',
    create_go: 'Crear el torneo',
    status: { registration: 'inscripción', running: 'en juego', finished: 'terminado' },
    summary: (v) => `${X.systems[v.system] || v.system} · ${v.boards} tableros · ${v.total_rounds} rondas${v.baku ? ' (aceleración Bakú)' : ''} · puntos de encuentro ${v.scoring} · ${X.status[v.status] || v.status}`,
    not_found: 'No existe ese torneo por equipos.',
    teams: 'Equipos',
    no_teams: 'Aún no hay equipos.',
    add_team: 'Inscribir un equipo',
    team_name: 'Nombre del equipo',
    team_school: 'Centro o club',
    roster: 'Lista (un jugador por línea, del tablero 1 hacia abajo)',
    roster_help: 'Cada línea: nombre, elo, categoría (elo y categoría si los hay). Una cuenta del servidor: @nombre. Sin «orden fijo», la lista se ordena por elo.',
    fixed: 'Orden fijo (el de la lista, no por elo)',
    captain: 'Capitán (número en la lista)',
    add_team_go: 'Inscribir',
    team_added: (n) => `Equipo ${n} inscrito.`,
    roster_empty: 'La lista está vacía: escribe al menos un jugador.',
    roster_line: (n, why) => `Lista, línea ${n}: ${why}`,
    bad_rating: (x) => `«${x}» no es un elo (0 a 3500)`,
    members: (n) => (n === 1 ? '1 jugador' : `${n} jugadores`),
    order: 'Orden',
    player: 'Jugador',
    rating: 'Elo',
    category: 'Cat.',
    account: 'Cuenta',
    round: 'Ronda',
    round_n: (n) => `Ronda ${n}`,
    no_rounds: 'Sin rondas emparejadas',
    pair: (n) => `Emparejar la ronda ${n}`,
    pair_wait: 'La ronda siguiente se empareja cuando todos los encuentros tienen resultado.',
    all_paired: 'Todas las rondas están emparejadas.',
    round_page: 'Hoja de la ronda con los códigos QR',
    pairings_pdf: 'Emparejamientos (PDF)',
    standings_pdf: 'Clasificación y cuadro cruzado (PDF)',
    boards_pdf: 'Resultados por tablero (PDF)',
    printouts: 'Impresos',
    table_n: (n) => `Mesa ${n}`,
    bye: (name) => `Exento (bye): ${name}`,
    board: 'Tablero',
    white: 'Blancas',
    black: 'Negras',
    result: 'Resultado',
    state: 'Estado',
    phones: 'Móviles',
    states: {
      missing: 'sin resultado', entered: 'sin confirmar', conflict: 'en conflicto',
      confirmed: 'confirmado', arbiter: 'árbitro', forfeit: 'incomparecencia',
      played: 'jugada en línea',
    },
    claim: (who, r) => `${who}: ${r}`,
    empty: '(vacío)',
    result_of: (t, b) => `Resultado de la mesa ${t}, tablero ${b}`,
    lineup: 'Alineación',
    lineup_of: (team) => `Alineación de ${team}`,
    lineup_board: (team, b) => `${team}, tablero ${b}`,
    lineup_go: 'Guardar alineación',
    lineup_saved: (team) => `Alineación de ${team} guardada.`,
    lineup_locked: 'La alineación ya no cambia: el encuentro tiene resultados.',
    nobody: '— nadie —',
    forfeit: 'Incomparecencia del encuentro',
    forfeit_home: (n) => `No vino ${n}`,
    forfeit_both: 'No vino ninguno',
    attention: 'Por mirar',
    attention_none: 'Ningún tablero pendiente en esta ronda.',
    missing_count: (n) => (n === 1 ? 'Sin resultado: 1 tablero.' : `Sin resultado: ${n} tableros.`),
    attention_row: (t, b, st) => `Mesa ${t}, tablero ${b}: ${st}`,
    override: 'Decidir',
    standings: 'Clasificación',
    rank: 'Puesto',
    team: 'Equipo',
    mp: 'PE',
    mp_long: 'puntos de encuentro',
    gp: 'PP',
    gp_long: 'puntos de partida',
    tiebreaks: {
      MPTS: 'puntos de encuentro', GPTS: 'puntos de partida', EMGSB: 'Sonneborn-Berger olímpico',
      EMMSB: 'Sonneborn-Berger por encuentros', BH: 'Buchholz', DE: 'encuentro directo',
      WIN: 'encuentros ganados', WON: 'encuentros ganados jugando', BC: 'recuento por tableros',
    },
    log: 'Registro (entradas de los móviles y del árbitro)',
    log_empty: 'Nada anotado aún.',
    log_row: (e) => `R${e.round} M${e.table} T${e.board} · ${X.who[e.who] || e.who} · ${X.actions[e.action] || e.action}${e.result ? ` ${e.result}` : ''}${e.previous ? ` (antes ${e.previous})` : ''}`,
    who: { home: 'primer equipo', away: 'segundo equipo', arbiter: 'árbitro' },
    actions: { entered: 'anota', confirmed: 'confirma', conflict: 'conflicto', arbiter: 'árbitro anota', override: 'árbitro corrige', forfeit: 'incomparecencia' },
    forbid_title: 'Emparejamientos prohibidos',
    forbid_help: 'Los equipos marcados no se enfrentarán en las rondas que falten (p. ej. dos equipos del mismo colegio). Solo en el suizo.',
    forbid_go: 'Que no se enfrenten',
    forbid_school: 'Los equipos de un mismo centro no se enfrentan',
    forbidden_pair: (a, b) => `${a} no juega contra ${b}`,
    forbidden_none: 'Ninguno.',
    bye_title: 'Descansos pedidos',
    bye_help: 'Un equipo que pide no jugar una ronda aún sin emparejar queda fuera de ella y suma lo que dice su tipo. Solo en el suizo.',
    bye_team: 'Equipo',
    bye_round: 'Ronda',
    bye_kind: 'Tipo',
    bye_kinds: { completo: 'completo (como un encuentro ganado)', medio: 'medio (como un empate)', cero: 'cero' },
    bye_go: 'Anotar el descanso',
    bye_row: (b) => `Ronda ${b.round}: ${b.name} descansa (${b.kind})`,
    byes_none: 'Ninguno.',
    schools: 'Clasificación por centros',
    school_name: 'Centro',
    counted: 'Equipos que suman',
    school_rules: (r) => [r.max_teams ? `como mucho ${r.max_teams} equipos por centro` : '', ...r.categories.map((q) => `al menos ${q.players} de ${q.category} en cada lista`), `suman los ${r.counted} mejores equipos de cada centro`].filter(Boolean).join(' · '),
    done: 'Hecho.',
  },
  en: {
    title: 'Team tournaments',
    create: 'New team tournament',
    name: "Tournament's name",
    system: 'System',
    systems: {
      suizo: 'Team Swiss (FIDE C.04.6)', liguilla: 'Round robin',
      liguilla_doble: 'Double round robin', scheveningen: 'Scheveningen (two teams)',
      scheveningen_doble: 'Double Scheveningen',
    },
    rounds: 'Rounds',
    baku: 'Baku acceleration (FIDE C.04.7)',
    rounds_help: 'Swiss only; a round robin and a Scheveningen have the rounds their system gives.',
    boards: 'Boards per match',
    scoring: 'Match points (win/draw/loss)',
    city: 'City',
    school: 'School rules',
    school_max: 'At most, teams per school',
    school_categories: 'Players of each category in every roster',
    school_categories_help: "For example 'F:1, sub12:2': every roster needs one F player and two sub12.",
    school_counted: "Teams of each school counted in the schools' ranking",
    create_go: 'Create the tournament',
    status: { registration: 'registration', running: 'running', finished: 'finished' },
    summary: (v) => `${X.systems[v.system] || v.system} · ${v.boards} boards · ${v.total_rounds} rounds${v.baku ? ' (Baku acceleration)' : ''} · match points ${v.scoring} · ${X.status[v.status] || v.status}`,
    not_found: 'There is no such team tournament.',
    teams: 'Teams',
    no_teams: 'No teams yet.',
    add_team: 'Enter a team',
    team_name: "Team's name",
    team_school: 'School or club',
    roster: 'Roster (one player a line, board 1 first)',
    roster_help: 'Each line: name, rating, category (rating and category if any). An account of this server: @name. Without "fixed order" the roster is sorted by rating.',
    fixed: 'Fixed order (as listed, not by rating)',
    captain: "Captain (place in the roster)",
    add_team_go: 'Enter',
    team_added: (n) => `Team ${n} entered.`,
    roster_empty: 'The roster is empty: type at least one player.',
    roster_line: (n, why) => `Roster, line ${n}: ${why}`,
    bad_rating: (x) => `'${x}' is not a rating (0 to 3500)`,
    members: (n) => (n === 1 ? '1 player' : `${n} players`),
    order: 'Order',
    player: 'Player',
    rating: 'Rating',
    category: 'Cat.',
    account: 'Account',
    round: 'Round',
    round_n: (n) => `Round ${n}`,
    no_rounds: 'No round paired',
    pair: (n) => `Pair round ${n}`,
    pair_wait: 'The next round is paired once every match has its result.',
    all_paired: 'Every round is paired.',
    round_page: "The round's sheet with the QR codes",
    pairings_pdf: 'Pairings (PDF)',
    standings_pdf: 'Standings and crosstable (PDF)',
    boards_pdf: 'Board-by-board results (PDF)',
    printouts: 'Printouts',
    table_n: (n) => `Table ${n}`,
    bye: (name) => `Bye: ${name}`,
    board: 'Board',
    white: 'White',
    black: 'Black',
    result: 'Result',
    state: 'State',
    phones: 'Phones',
    states: {
      missing: 'no result', entered: 'not confirmed', conflict: 'in conflict',
      confirmed: 'confirmed', arbiter: 'arbiter', forfeit: 'forfeit',
      played: 'played online',
    },
    claim: (who, r) => `${who}: ${r}`,
    empty: '(empty)',
    result_of: (t, b) => `Result of table ${t}, board ${b}`,
    lineup: 'Line-up',
    lineup_of: (team) => `${team}'s line-up`,
    lineup_board: (team, b) => `${team}, board ${b}`,
    lineup_go: 'Save line-up',
    lineup_saved: (team) => `${team}'s line-up saved.`,
    lineup_locked: 'The line-up no longer changes: the match has results.',
    nobody: '— nobody —',
    forfeit: 'Whole match forfeited',
    forfeit_home: (n) => `${n} did not come`,
    forfeit_both: 'Neither came',
    attention: 'To look at',
    attention_none: 'No board waiting in this round.',
    missing_count: (n) => (n === 1 ? 'No result: 1 board.' : `No result: ${n} boards.`),
    attention_row: (t, b, st) => `Table ${t}, board ${b}: ${st}`,
    override: 'Decide',
    standings: 'Standings',
    rank: 'Rank',
    team: 'Team',
    mp: 'MP',
    mp_long: 'match points',
    gp: 'GP',
    gp_long: 'game points',
    tiebreaks: {
      MPTS: 'match points', GPTS: 'game points', EMGSB: 'Olympiad Sonneborn-Berger',
      EMMSB: 'Sonneborn-Berger on match points', BH: 'Buchholz', DE: 'direct encounter',
      WIN: 'matches won', WON: 'matches won over the board', BC: 'board count',
    },
    log: "Log (the phones' and the arbiter's entries)",
    log_empty: 'Nothing entered yet.',
    log_row: (e) => `R${e.round} T${e.table} B${e.board} · ${X.who[e.who] || e.who} · ${X.actions[e.action] || e.action}${e.result ? ` ${e.result}` : ''}${e.previous ? ` (was ${e.previous})` : ''}`,
    who: { home: 'first team', away: 'second team', arbiter: 'arbiter' },
    actions: { entered: 'enters', confirmed: 'confirms', conflict: 'conflict', arbiter: 'arbiter enters', override: 'arbiter overrides', forfeit: 'forfeit' },
    forbid_title: 'Forbidden pairings',
    forbid_help: 'The teams ticked will not meet in the rounds left (e.g. two teams of one school). Swiss only.',
    forbid_go: 'Keep them apart',
    forbid_school: 'Teams of one school never meet',
    forbidden_pair: (a, b) => `${a} does not play ${b}`,
    forbidden_none: 'None.',
    bye_title: 'Requested byes',
    bye_help: 'A team that asks not to play a round not yet paired is left out of it and scores what its kind says. Swiss only.',
    bye_team: 'Team',
    bye_round: 'Round',
    bye_kind: 'Kind',
    bye_kinds: { completo: 'full (as a won match)', medio: 'half (as a drawn match)', cero: 'zero' },
    bye_go: 'Enter the bye',
    bye_row: (b) => `Round ${b.round}: ${b.name} has a bye (${b.kind})`,
    byes_none: 'None.',
    schools: "Schools' ranking",
    school_name: 'School',
    counted: 'Teams counted',
    school_rules: (r) => [r.max_teams ? `at most ${r.max_teams} teams per school` : '', ...r.categories.map((q) => `at least ${q.players} ${q.category} in every roster`), `each school's best ${r.counted} teams counted`].filter(Boolean).join(' · '),
    done: 'Done.',
  },
};

const enc = encodeURIComponent;

function table(id, head, rows, cls = '') {
  const { h } = C;
  return h('div', { class: 'tn-scroll' }, h('table', { id, class: `tn-table ${cls}` },
    h('thead', {}, h('tr', {}, head.map((x) => h('th', { scope: 'col', title: x && x.title ? x.title : null, class: x && x.opt ? 'opt' : null }, x && x.text !== undefined ? x.text : x)))),
    h('tbody', {}, rows)));
}

// ------------------------------------------------------------------ create

/** `F:1, sub12:2` as the server's quotas; an error names what is wrong. */
function readQuotas(text) {
  const out = [];
  for (const part of text.split(/[,;]/).map((x) => x.trim()).filter(Boolean)) {
    const m = part.match(/^(.+?)\s*[:=]\s*(\d{1,2})$/);
    if (!m) throw new Error(`${X.school_categories}: «${part}»`);
    out.push({ category: m[1].trim(), players: Number(m[2]) });
  }
  return out;
}

function createPage(main) {
  const { h, api } = C;
  main.classList.add('tn');
  const v = (id) => document.getElementById(id);
  const roundsLabel = h('label', { id: 'eq-rounds-label' }, X.rounds, ' ', h('input', { id: 'eq-rounds', type: 'number', min: 1, max: 30, value: 5 }));
  const bakuLabel = h('label', { id: 'eq-baku-label', class: 'row' }, h('input', { id: 'eq-baku', type: 'checkbox' }), ' ', X.baku);
  const system = h('select', {
    id: 'eq-system',
    onchange: () => { roundsLabel.hidden = system.value !== 'suizo'; bakuLabel.hidden = roundsLabel.hidden; },
  }, SYSTEMS.map((s) => h('option', { value: s }, X.systems[s])));
  const form = h('form', {
    id: 'eq-create', class: 'tn-actions',
    onsubmit: async (e) => {
      e.preventDefault();
      const body = {
        name: v('eq-name').value.trim(),
        system: system.value,
        boards: Number(v('eq-boards').value),
        scoring: v('eq-scoring').value.trim() || '2/1/0',
      };
      if (system.value === 'suizo') {
        body.rounds = Number(v('eq-rounds').value);
        if (v('eq-baku').checked) body.baku = true;
      }
      if (v('eq-city').value.trim()) body.city = v('eq-city').value.trim();
      try {
        const max = v('eq-school-max').value.trim();
        const quotas = readQuotas(v('eq-school-cats').value);
        const counted = v('eq-school-counted').value.trim();
        if (max || quotas.length || counted) {
          body.school = { categories: quotas };
          if (max) body.school.max_teams = Number(max);
          if (counted) body.school.counted = Number(counted);
        }
        const r = await api('POST', '/api/equipos', body);
        location.href = `/equipos/${enc(r.id)}`;
      } catch (err) { C.showError(err); }
    },
  },
  h('label', {}, X.name, ' ', h('input', { id: 'eq-name', required: true, maxlength: 80, size: 30 })),
  h('label', {}, X.system, ' ', system),
  roundsLabel,
  bakuLabel,
  h('label', {}, X.boards, ' ', h('input', { id: 'eq-boards', type: 'number', min: 1, max: 20, value: 4 })),
  h('label', {}, X.scoring, ' ', h('input', { id: 'eq-scoring', value: '2/1/0', size: 7, pattern: '\\d+/\\d+/\\d+' })),
  h('label', {}, X.city, ' ', h('input', { id: 'eq-city', maxlength: 80 })),
  h('p', { class: 'help' }, X.rounds_help),
  h('details', { id: 'eq-school', class: 'full' }, h('summary', {}, X.school),
    h('div', { class: 'tn-actions' },
      h('label', {}, X.school_max, ' ', h('input', { id: 'eq-school-max', type: 'number', min: 1, max: 99 })),
      h('label', {}, X.school_categories, ' ', h('input', { id: 'eq-school-cats', size: 18, placeholder: 'F:1, sub12:2' })),
      h('label', {}, X.school_counted, ' ', h('input', { id: 'eq-school-counted', type: 'number', min: 1, max: 20 })),
      h('p', { class: 'help' }, X.school_categories_help))),
  h('button', { type: 'submit', id: 'eq-create-go' }, X.create_go));
  main.append(h('h1', {}, X.title), h('section', { class: 'card', 'aria-labelledby': 'h-eq-create' }, h('h2', { id: 'h-eq-create' }, X.create), form));
}

// ------------------------------------------------------------------ roster

/** The roster textarea's lines as the server's members; throws with the line. */
function readRoster(text) {
  const out = [];
  text.split('\n').forEach((raw, i) => {
    const line = raw.trim();
    if (!line) return;
    const parts = line.split(/[,;\t]/).map((x) => x.trim()).filter(Boolean);
    const m = {};
    const first = parts.shift();
    if (first.startsWith('@')) m.account = first.slice(1).trim();
    else m.name = first;
    for (const p of parts) {
      if (/^\d+$/.test(p)) {
        const n = Number(p);
        if (n > 3500) throw new Error(X.roster_line(i + 1, X.bad_rating(p)));
        m.rating = n;
      } else if (p.startsWith('@')) m.account = p.slice(1).trim();
      else m.category = p;
    }
    out.push(m);
  });
  if (!out.length) throw new Error(X.roster_empty);
  return out;
}

// ------------------------------------------------------------------ desk

function stateText(s) { return X.states[s] || s; }
/** A value as this page's language writes it: `6,5` in Spanish, `6.5` in English. */
function decimal(v) {
  const text = String(v ?? '');
  return C.LANG === 'es' ? text.replace('.', ',') : text.replace(',', '.');
}

async function desk(main, me, id) {
  const { h, api } = C;
  main.classList.add('tn', 'tn-desk', 'eq-desk');
  const base = `/api/equipos/${enc(id)}`;
  let view;
  try { view = await api('GET', base); } catch (e) {
    main.append(h('p', { class: 'error', id: 'eq-missing' }, e.status === 404 ? X.not_found : e.message));
    return;
  }
  const head = h('div', { class: 'tn-head' });
  const roundCard = h('section', { id: 'eq-round', class: 'card wide' });
  const standCard = h('section', { id: 'eq-standings', class: 'card wide' });
  const teamsCard = h('section', { id: 'eq-teams', class: 'card wide' });
  const addCard = h('section', { id: 'eq-add', class: 'card' });
  const logCard = h('section', { id: 'eq-log', class: 'card' });
  const forbidCard = h('section', { id: 'eq-forbid', class: 'card' });
  const byeCard = h('section', { id: 'eq-bye', class: 'card' });
  main.append(head, roundCard, standCard, teamsCard);
  if (view.can_edit) main.append(addCard, ...(view.system === 'suizo' ? [forbidCard, byeCard] : []), logCard);
  let shown = null; // the round shown (null: the last)
  let noteText = '';
  const note = (text) => { noteText = text; const el = document.getElementById('eq-note'); if (el) el.textContent = text; };

  async function refresh() {
    try { view = await api('GET', base); draw(); } catch (e) { C.showError(e); }
  }
  /**
   * Sends a change; refused, the server's words go to the page's error line
   * and, when given, to `here` (beside what was clicked: the line-up form).
   */
  async function send(method, url, body, done, here) {
    try {
      const r = await api(method, url, body);
      C.showError(null);
      if (done) done(r);
      await refresh();
      return r ?? true;
    } catch (err) {
      C.showError(err);
      if (here) here.textContent = err.message || String(err);
      return null;
    }
  }

  const teamOf = (n) => (view.teams || []).find((x) => x.number === n);
  const teamName = (n) => (teamOf(n) ? teamOf(n).name : `#${n}`);

  function drawHead() {
    const last = (view.rounds || []).length;
    head.replaceChildren(h('h1', { id: 'eq-title' }, view.name),
      h('p', { id: 'eq-summary' }, X.summary(view)),
      h('p', { class: 'tn-links', id: 'eq-print' }, h('strong', {}, `${X.printouts}:`),
        h('a', { id: 'eq-standings-pdf', href: `${base}/clasificacion.pdf` }, X.standings_pdf),
        h('a', { id: 'eq-boards-pdf', href: `${base}/tableros.pdf` }, X.boards_pdf),
        view.can_edit && last ? h('a', { id: 'eq-pairings-pdf', href: `${base}/rondas/${last}/emparejamientos.pdf` }, `${X.pairings_pdf} · ${X.round_n(last)}`) : null),
      h('p', { id: 'eq-note', class: 'muted', role: 'status' }, noteText));
  }

  function resultSelect(r, m, b) {
    return h('select', {
      class: 'eq-result', 'aria-label': X.result_of(m.table, b.board),
      'data-table': m.table, 'data-board': b.board,
      disabled: b.state === 'forfeit',
      onchange: (e) => {
        if (!e.target.value) return;
        send('POST', `${base}/resultado`, { round: r, table: m.table, board: b.board, result: e.target.value });
      },
    }, h('option', { value: '' }, '–'), RESULTS.map((x) => h('option', { value: x, selected: b.result === x }, x)));
  }

  function claims(m, b) {
    const out = [];
    if (b.home_claim) out.push(X.claim(m.home_name, b.home_claim));
    if (b.away_claim) out.push(X.claim(m.away_name, b.away_claim));
    return out.join(' · ');
  }

  /** A team's line-up editor: one select per board, in roster order. */
  function lineupForm(r, m, side) {
    const team = teamOf(side === 'home' ? m.home : m.away);
    if (!team) return null;
    const names = m.boards.map((b) => (side === 'home' ? b.home_player : b.away_player));
    const formId = `eq-lineup-${m.table}-${side}`;
    const refusal = h('p', { class: 'error eq-form-error', role: 'alert' });
    const selects = m.boards.map((b, i) => h('select', {
      class: 'eq-lineup-player', 'data-board': b.board,
      'aria-label': X.lineup_board(team.name, b.board),
    }, h('option', { value: '' }, X.nobody),
    team.members.map((p) => h('option', { value: p.order, selected: names[i] === p.name }, `${p.order}. ${p.name}`))));
    return h('form', {
      id: formId, class: 'eq-lineup', 'data-team': team.number,
      onsubmit: (e) => {
        e.preventDefault();
        const players = selects.map((s) => Number(s.value)).filter((x) => x > 0);
        refusal.textContent = '';
        send('POST', `${base}/alineacion`, { round: r, team: team.number, players }, () => note(X.lineup_saved(team.name)), refusal);
      },
    }, h('fieldset', {}, h('legend', {}, X.lineup_of(team.name)),
      h('ol', { class: 'eq-boards-list' }, selects.map((s) => h('li', {}, s))),
      h('button', { type: 'submit', class: 'secondary eq-lineup-go' }, X.lineup_go), refusal));
  }

  function matchBlock(r, m) {
    const started = m.boards.some((b) => b.result && b.state !== 'forfeit');
    const fixedBySystem = (view.system || '').startsWith('scheveningen');
    const rows = m.boards.map((b) => {
      const home = b.home_player || X.empty;
      const away = b.away_player || X.empty;
      const [w, bl] = b.white === 'home' ? [home, away] : [away, home];
      return h('tr', { class: `eq-state-${b.state}`, 'data-board': b.board, 'data-state': b.state, 'data-result': b.result || '' },
        h('td', { class: 'num' }, String(b.board)),
        h('td', { class: 'w' }, w),
        h('td', { class: 'res' }, view.can_edit ? resultSelect(r, m, b) : (b.result || '')),
        h('td', { class: 'b' }, bl),
        h('td', { class: 'eq-st opt' }, stateText(b.state)),
        h('td', { class: 'eq-claims opt' }, claims(m, b)));
    });
    const kids = [
      h('h3', {}, `${X.table_n(m.table)}: `, h('span', { class: 'eq-home' }, m.home_name), ' – ', h('span', { class: 'eq-away' }, m.away_name), ' ',
        h('span', { class: 'eq-score' }, `${decimal(m.home_points)} – ${decimal(m.away_points)}`)),
      table(`eq-match-${m.table}`, [X.board, X.white, X.result, X.black, { text: X.state, opt: true }, { text: X.phones, opt: true }], rows, 'pairings eq-match'),
    ];
    if (view.can_edit && !fixedBySystem && r === (view.rounds || []).length) {
      if (started) kids.push(h('p', { class: 'muted eq-locked' }, X.lineup_locked));
      else kids.push(h('div', { class: 'eq-lineups' }, lineupForm(r, m, 'home'), lineupForm(r, m, 'away')));
    }
    if (view.can_edit && !m.complete) {
      const fbtn = (by, text) => h('button', {
        type: 'button', class: 'secondary eq-forfeit', 'data-by': by,
        onclick: () => send('POST', `${base}/incomparecencia`, { round: r, table: m.table, by }),
      }, text);
      kids.push(h('p', { class: 'tn-actions eq-forfeits' }, h('span', {}, `${X.forfeit}:`),
        fbtn('home', X.forfeit_home(m.home_name)), fbtn('away', X.forfeit_home(m.away_name)), fbtn('both', X.forfeit_both)));
    }
    return h('article', { class: 'eq-match-box', 'data-table': m.table }, ...kids);
  }

  /**
   * The boards waiting for the arbiter: the phones' conflicts first, then
   * the boards one phone entered and the other has not confirmed (each
   * with what the phones said and a select to decide); the boards without
   * any result are counted (their selects are in the matches below).
   */
  function attention(r, round) {
    const order = { conflict: 0, entered: 1 };
    const items = [];
    let missing = 0;
    for (const m of round.matches) {
      for (const b of m.boards) {
        if (b.state in order) items.push({ m, b });
        if (b.state === 'missing') missing += 1;
      }
    }
    items.sort((x, y) => order[x.b.state] - order[y.b.state] || x.m.table - y.m.table || x.b.board - y.b.board);
    if (!items.length && !missing) return h('p', { id: 'eq-attention', class: 'muted' }, X.attention_none);
    return h('div', { id: 'eq-attention' }, h('h3', {}, `${X.attention} (${items.length + missing})`),
      items.length ? h('ul', { class: 'eq-attention' }, items.map(({ m, b }) => h('li', {
        class: `eq-state-${b.state}`, 'data-table': m.table, 'data-board': b.board, 'data-state': b.state,
      }, h('span', {}, X.attention_row(m.table, b.board, stateText(b.state))), ' ',
      claims(m, b) ? h('span', { class: 'eq-claims' }, `(${claims(m, b)}) `) : '',
      view.can_edit ? h('label', {}, `${X.override} `, resultSelect(r, m, b)) : null))) : null,
      missing ? h('p', { id: 'eq-missing-count', 'data-missing': missing }, X.missing_count(missing)) : null);
  }

  function drawRound() {
    const rounds = view.rounds || [];
    const last = rounds.length;
    const r = shown || last;
    const round = rounds.find((x) => x.round === r);
    const kids = [h('h2', {}, last ? X.round_n(r) : X.no_rounds)];
    if (rounds.length > 1) {
      kids.push(h('label', {}, X.round, ' ', h('select', {
        id: 'eq-round-select',
        onchange: (e) => { const n = Number(e.target.value); shown = n === last ? null : n; drawRound(); },
      }, rounds.map((x) => h('option', { value: x.round, selected: x.round === r }, X.round_n(x.round))))));
    }
    if (view.can_edit) {
      if (view.next_round) {
        kids.push(h('p', {}, h('button', {
          type: 'button', id: 'eq-pair',
          onclick: () => send('POST', `${base}/emparejar`, {}, (p) => { shown = null; note(X.round_n(p.round)); }),
        }, X.pair(view.next_round))));
      } else if (last && last >= view.total_rounds) {
        kids.push(h('p', { class: 'muted', id: 'eq-pair-state' }, X.all_paired));
      } else if (last) {
        kids.push(h('p', { class: 'muted', id: 'eq-pair-state' }, X.pair_wait));
      }
    }
    if (round) {
      if (view.can_edit) {
        kids.push(h('p', { class: 'tn-links' },
          h('a', { id: 'eq-round-page', href: `/equipos/${enc(id)}/rondas/${r}` }, X.round_page),
          h('a', { id: 'eq-round-pdf', href: `${base}/rondas/${r}/emparejamientos.pdf` }, X.pairings_pdf)));
        kids.push(attention(r, round));
      }
      kids.push(...round.matches.map((m) => matchBlock(r, m)));
      if (round.bye) kids.push(h('p', { id: 'eq-bye' }, X.bye(teamName(round.bye))));
    }
    roundCard.replaceChildren(...kids);
  }

  function drawStandings() {
    const rows = view.standings || [];
    const codes = rows.length ? rows[0].tiebreaks.map((x) => x.code) : [];
    // Game points are a column once: as the GPTS tie-break when it is one.
    const gpColumn = !codes.includes('GPTS');
    standCard.replaceChildren(h('h2', {}, X.standings),
      table('eq-standings-table', [X.rank, X.team, { text: X.mp, title: X.mp_long }, gpColumn ? { text: X.gp, title: X.gp_long } : null,
        ...codes.map((c) => ({ text: c, title: X.tiebreaks[c] || c }))].filter(Boolean),
      rows.map((s) => h('tr', { 'data-team': s.team },
        h('td', { class: 'num' }, String(s.rank)), h('td', { class: 'name' }, s.name),
        h('td', { class: 'pts' }, String(s.match_points)), gpColumn ? h('td', { class: 'num' }, decimal(s.game_points)) : null,
        ...s.tiebreaks.map((x) => h('td', { class: 'num', 'data-code': x.code }, decimal(x.value)))))),
      codes.length ? h('p', { class: 'help' }, codes.map((c) => `${c}: ${X.tiebreaks[c] || c}`).join(' · ')) : null,
      (view.schools || []).length ? h('h3', {}, X.schools) : null,
      (view.schools || []).length ? table('eq-schools-table', [X.rank, X.school_name, { text: X.mp, title: X.mp_long }, { text: X.gp, title: X.gp_long }, X.counted],
        view.schools.map((s) => h('tr', { 'data-school': s.school },
          h('td', { class: 'num' }, String(s.rank)), h('td', { class: 'name' }, s.school),
          h('td', { class: 'pts' }, String(s.match_points)), h('td', { class: 'num' }, decimal(s.game_points)),
          h('td', {}, s.teams.map(teamName).join(', '))))) : null,
      view.school ? h('p', { class: 'help', id: 'eq-school-rules' }, X.school_rules(view.school)) : null);
  }

  function drawTeams() {
    const teams = view.teams || [];
    if (!teams.length) { teamsCard.replaceChildren(h('h2', {}, X.teams), h('p', { class: 'muted', id: 'eq-no-teams' }, X.no_teams)); return; }
    teamsCard.replaceChildren(h('h2', {}, `${X.teams} (${teams.length})`),
      h('div', { class: 'eq-team-grid' }, teams.map((tm) => h('details', { class: 'eq-team', 'data-team': tm.number },
        h('summary', {}, `${tm.number}. ${tm.name}`, tm.school ? ` · ${tm.school}` : '', ` · ${X.members(tm.members.length)}`),
        table(`eq-roster-${tm.number}`, [X.order, X.player, X.rating, X.category, X.account],
          tm.members.map((p) => h('tr', { 'data-order': p.order },
            h('td', { class: 'num' }, String(p.order)), h('td', { class: 'name' }, p.name + (tm.captain === p.order ? ' (C)' : '')),
            h('td', { class: 'num' }, p.rating ? String(p.rating) : ''), h('td', {}, p.category || ''), h('td', {}, p.account || ''))))))));
  }

  function drawAdd() {
    if (!view.can_edit || addCard.childElementCount) return; // keep what is being typed
    const v = (x) => document.getElementById(x);
    addCard.append(h('h2', {}, X.add_team), h('form', {
      id: 'eq-add-team',
      onsubmit: async (e) => {
        e.preventDefault();
        let body;
        try {
          body = { name: v('eq-team-name').value.trim(), members: readRoster(v('eq-team-roster').value), fixed_order: v('eq-team-fixed').checked };
        } catch (err) { C.showError(err); return; }
        if (v('eq-team-school').value.trim()) body.school = v('eq-team-school').value.trim();
        if (v('eq-team-captain').value) body.captain = Number(v('eq-team-captain').value);
        const r = await send('POST', `${base}/equipos`, body);
        if (r) {
          for (const x of ['eq-team-name', 'eq-team-roster', 'eq-team-captain']) v(x).value = '';
          v('eq-team-fixed').checked = false;
          note(X.team_added(r.team));
          v('eq-team-name').focus();
        }
      },
    },
    h('label', {}, X.team_name, ' ', h('input', { id: 'eq-team-name', required: true, maxlength: 80 })),
    h('label', {}, X.team_school, ' ', h('input', { id: 'eq-team-school', maxlength: 80 })),
    h('label', { class: 'full' }, X.roster, h('textarea', { id: 'eq-team-roster', rows: 6, placeholder: 'Ana López, 1850, F\nLuis Pérez, 1700, sub12\n@marta' })),
    h('p', { class: 'help' }, X.roster_help),
    h('label', { class: 'row' }, h('input', { type: 'checkbox', id: 'eq-team-fixed' }), ' ', X.fixed),
    h('label', {}, X.captain, ' ', h('input', { id: 'eq-team-captain', type: 'number', min: 1, max: 30 })),
    h('button', { type: 'submit', id: 'eq-add-go' }, X.add_team_go)));
  }

  /** Teams that must not meet: ticked teams, or every school's teams. */
  function drawForbid() {
    if (!view.can_edit || view.system !== 'suizo') return;
    const ticked = new Set([...forbidCard.querySelectorAll('input.eq-forbid-team:checked')].map((x) => Number(x.value)));
    const pairs = view.forbidden || [];
    forbidCard.replaceChildren(h('h2', {}, X.forbid_title), h('p', { class: 'help' }, X.forbid_help),
      h('form', {
        id: 'eq-forbid-form',
        onsubmit: (e) => {
          e.preventDefault();
          const teams = [...forbidCard.querySelectorAll('input.eq-forbid-team:checked')].map((x) => Number(x.value));
          send('POST', `${base}/prohibidos`, { teams }, () => forbidCard.querySelectorAll('input.eq-forbid-team').forEach((x) => { x.checked = false; }));
        },
      }, h('div', { class: 'checks' }, (view.teams || []).map((tm) => h('label', { class: 'row' },
        h('input', { type: 'checkbox', class: 'eq-forbid-team', value: tm.number, checked: ticked.has(tm.number) }), ' ', `${tm.number}. ${tm.name}`))),
      h('p', { class: 'tn-actions' },
        h('button', { type: 'submit', id: 'eq-forbid-go' }, X.forbid_go),
        h('button', { type: 'button', class: 'secondary', id: 'eq-forbid-school', onclick: () => send('POST', `${base}/prohibidos`, { same_school: true }) }, X.forbid_school))),
      pairs.length ? h('ul', { id: 'eq-forbidden' }, pairs.map(([a, b]) => h('li', { 'data-pair': `${a}-${b}` }, X.forbidden_pair(teamName(a), teamName(b)))))
        : h('p', { class: 'muted', id: 'eq-forbidden-none' }, X.forbidden_none));
  }

  /** A team's requested bye for a round not yet paired, and those asked. */
  function drawByes() {
    if (!view.can_edit || view.system !== 'suizo') return;
    const v = (x) => document.getElementById(x);
    const kept = { team: v('eq-bye-team')?.value, round: v('eq-bye-round')?.value, kind: v('eq-bye-kind')?.value };
    const byes = view.requested_byes || [];
    const first = view.next_round || view.total_rounds;
    byeCard.replaceChildren(h('h2', {}, X.bye_title), h('p', { class: 'help' }, X.bye_help),
      h('form', {
        id: 'eq-bye-form',
        onsubmit: (e) => {
          e.preventDefault();
          send('POST', `${base}/descansos`, { round: Number(v('eq-bye-round').value), team: Number(v('eq-bye-team').value), kind: v('eq-bye-kind').value });
        },
      },
      h('label', {}, X.bye_team, ' ', h('select', { id: 'eq-bye-team' }, (view.teams || []).map((tm) => h('option', { value: tm.number }, `${tm.number}. ${tm.name}`)))),
      h('label', {}, X.bye_round, ' ', h('input', { id: 'eq-bye-round', type: 'number', min: 1, max: view.total_rounds, value: first })),
      h('label', {}, X.bye_kind, ' ', h('select', { id: 'eq-bye-kind' }, Object.entries(X.bye_kinds).map(([k, text]) => h('option', { value: k }, text)))),
      h('button', { type: 'submit', id: 'eq-bye-go' }, X.bye_go)),
      byes.length ? h('ul', { id: 'eq-byes' }, byes.map((b) => h('li', { 'data-bye': `${b.round}-${b.team}`, 'data-kind': b.kind }, X.bye_row({ ...b, name: teamName(b.team), kind: X.bye_kinds[b.kind] || b.kind }))))
        : h('p', { class: 'muted', id: 'eq-byes-none' }, X.byes_none));
    if (kept.team) v('eq-bye-team').value = kept.team;
    if (kept.round) v('eq-bye-round').value = kept.round;
    if (kept.kind) v('eq-bye-kind').value = kept.kind;
  }

  async function drawLog() {
    if (!view.can_edit) return;
    let entries = [];
    try { entries = (await api('GET', `${base}/registro`)).entries || []; } catch { entries = []; }
    logCard.replaceChildren(h('details', { id: 'eq-log-box' }, h('summary', {}, `${X.log} (${entries.length})`),
      entries.length ? h('ol', { class: 'eq-log' }, entries.slice().reverse().map((e) => h('li', { 'data-action': e.action }, X.log_row(e)))) : h('p', { class: 'muted' }, X.log_empty)));
  }

  function draw() {
    drawHead();
    drawRound();
    drawStandings();
    drawTeams();
    drawAdd();
    drawForbid();
    drawByes();
    drawLog();
  }
  draw();
  void me;
}

// ------------------------------------------------------------------ entry

/** Shows the team tournament page for `path`; `ctx` is app.js's helpers. */
export async function route(path, main, me, ctx) {
  C = ctx;
  X = TEXTS[C.LANG] || TEXTS.es;
  let m;
  if (path === '/equipos') { createPage(main); return true; }
  if ((m = path.match(/^\/equipos\/([A-Za-z0-9_-]+)$/))) { await desk(main, me, m[1]); return true; }
  return false;
}
