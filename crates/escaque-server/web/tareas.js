// Tareas (issue 57): a class's homework in the browser.
//   /clases/{id}/tareas           the teacher: the homework set and the form
//                                 to set one; a pupil: its homework
//   /clases/{id}/tareas/{hw}      the teacher: the grid (pupils × items, a
//                                 cell opens the attempt move by move, CSV,
//                                 PDF); a pupil: the items, what is left
//   /clases/{id}/tareas/{hw}/{n}  a pupil plays item n (from 1) on its board
// The page knows no chess rules. A puzzle is played through the puzzle
// trainer's routes (/api/puzzles: legal moves, the verdict on each move, the
// reply, a hint) and the finished line is sent as the homework attempt; a
// course stage is the course page itself (aprender.js, called with an `api`
// that keeps the tries it sends); coordinates replay the server's trainer
// from the item's seed (the same squares the server checks); a game against
// the engine or a position to play out is a game on /partida, sent when it
// is over. The server judges every attempt (docs/protocol.md "Tareas").
import { boardKeys } from './boardkeys.js';

let C; // the shared helpers from app.js
let X; // this page's texts

const TEXTS = {
  es: {
    title: 'Tareas',
    homework_of: (c) => `Tareas de ${c}`,
    none: 'No hay tareas.',
    none_kid: '¡No tienes tareas!',
    left: (n) => (n === 0 ? 'Hecha' : n === 1 ? 'Te queda 1' : `Te quedan ${n}`),
    left_kid: (n) => (n === 0 ? '¡Hecha!' : `Faltan ${n}`),
    items: (n) => (n === 1 ? '1 ejercicio' : `${n} ejercicios`),
    due: (d) => `Para el ${d}`,
    overdue: 'Fuera de plazo',
    retry_yes: 'Cuenta el segundo intento',
    retry_no: 'Solo cuenta el primer intento',
    new_hw: 'Poner una tarea',
    hw_title: 'Título',
    due_label: 'Fecha de entrega',
    for_whom: 'Para',
    whole_class: 'Toda la clase',
    chosen: 'Alumnos elegidos',
    retry: 'El segundo intento cuenta',
    add_item: 'Añadir',
    kind: 'Ejercicio',
    kinds: {
      puzzles: 'Problemas por tema y puntuación',
      puzzle: 'Un problema por su código',
      game_puzzle: 'Problema de las partidas de la clase',
      stage: 'Etapa del curso',
      engine_game: 'Partida contra el motor',
      position: 'Posición para jugar (FEN)',
      coords: 'Coordenadas',
    },
    theme: 'Tema', any_theme: 'Cualquiera', min_rating: 'Desde', max_rating: 'Hasta', count: 'Cuántos',
    puzzle_id: 'Código del problema', stage: 'Etapa', level: 'Nivel del motor', goal: 'Objetivo', fen: 'Posición (FEN)',
    mode: 'Modo', mode_find: 'Buscar la casilla', mode_name: 'Nombrar la casilla',
    goals: { gana_blancas: 'Gana con blancas', gana_negras: 'Gana con negras', tablas: 'Consigue tablas o gana', gana: 'Gana', tablas_pos: 'Consigue tablas o gana' },
    list_items: 'Ejercicios de la tarea',
    no_items: 'Aún no hay ejercicios: añade alguno.',
    remove: 'Quitar',
    set: 'Poner la tarea',
    set_done: (n) => `Tarea puesta: ${n} ejercicios.`,
    open_grid: 'Ver resultados',
    delete: 'Borrar',
    delete_confirm: '¿Borrar esta tarea con todos sus intentos?',
    grid: 'Resultados',
    pupil: 'Alumno',
    average: 'Media',
    csv: 'Descargar CSV',
    pdf: 'Imprimir (PDF)',
    legend: 'Leyenda',
    states: { first_try: 'Resuelto a la primera', after_help: 'Resuelto con ayuda', failed: 'Fallado', not_done: 'Sin hacer' },
    late: 'tarde',
    attempt: 'Intento',
    attempt_of: (p, n) => `${p}, ejercicio ${n}`,
    time: (s) => `Tiempo: ${s} s`,
    hints: (n) => `Pistas: ${n}`,
    solved: 'Resuelto', not_solved: 'No resuelto',
    first: 'Inicio', prev: 'Anterior', next: 'Siguiente', last: 'Final',
    exercise_n: (n, s) => `Ejercicio ${n}: ${s === null || s === undefined ? 'no cumplido' : '★'.repeat(s)}`,
    answers: 'Respuestas',
    open_game: 'Ver la partida',
    close: 'Cerrar',
    back_hw: 'Volver a la tarea',
    back_list: 'Todas las tareas',
    back_class: 'Volver a la clase',
    play: 'Hacer',
    again: 'Otra vez',
    done_first: '¡A la primera!',
    done_help: 'Resuelto con ayuda',
    failed: 'Fallado',
    not_done: 'Por hacer',
    hint: 'Pista',
    hint_text: (piece, sq) => `Pista: mueve la pieza de ${sq} (${piece}).`,
    your_move: 'Te toca',
    watch: 'Mira la jugada del rival…',
    right: '¡Bien! Sigue.',
    sent: 'Guardado.',
    wrong: 'No era esa.',
    give_up: 'Me rindo',
    coords_find: (sq) => `Toca la casilla ${sq}`,
    coords_name: 'Escribe el nombre de la casilla marcada',
    coords_score: (r, n) => `${r} de ${n}`,
    send: 'Comprobar',
    start: 'Empezar',
    game_start: 'Jugar la partida',
    game_sent: 'Partida entregada.',
    game_wait: (g) => `Tu partida ${g} aún no ha terminado. Termínala y vuelve aquí.`,
    game_pick: 'Tu partida para esta tarea',
    stage_send: 'Entregar la etapa',
    stage_help: 'Haz los ejercicios de la etapa; al terminar se entrega sola (o pulsa «Entregar la etapa»).',
    not_found: 'No se encontró esa tarea.',
    teachers_only: 'Solo para los profesores de la clase.',
    pick_pupils: 'Elige a los alumnos',
    title_default: 'Tarea',
    parent_links: 'Enlaces para las familias',
    parent_make: 'Crear enlace',
    parent_revoke: 'Revocar',
    parent_made: (p) => `Enlace creado: ${p}`,
    parent_revoked: (n) => `${n} enlaces revocados.`,
    stages_done: 'Etapas del curso hechas en las tareas',
    games: 'Partidas de los últimos 30 días',
    with_white: 'con blancas', with_black: 'con negras',
    // The kind of each item, on the pupil's cards.
    kind_names: { puzzle: 'Problema', game_puzzle: 'Problema', stage: 'Etapa', coords: 'Coordenadas', engine_game: 'Partida contra el motor', position: 'Posición para jugar' },
    game_puzzle_pick: 'Problema (alumno · partida · jugada)',
    game_puzzles_none: 'Aún no hay problemas de las partidas de la clase (salen al analizar sus partidas).',
    // Juego tras la tarea.
    play_after: 'Juego tras la tarea',
    play_after_label: 'Los alumnos juegan libremente solo cuando han hecho la tarea abierta',
    play_after_help: 'Con esto activado, en modo infantil no se empiezan partidas libres (contra el motor, retos, propuestas, revanchas) mientras quede algún ejercicio de una tarea que aún esté en plazo. Las partidas de la propia tarea y los eventos de la clase sí se juegan.',
    play_after_on: 'Activado: primero la tarea, luego a jugar.',
    play_after_off: 'Desactivado: juego libre.',
    play_locked: 'Primero, la tarea',
    play_open: '¡Tarea hecha! Ya puedes jugar.',
    play_go: (t, n) => `Hacer «${t}» (${n === 1 ? 'queda 1' : `quedan ${n}`})`,
  },
  en: {
    title: 'Homework',
    homework_of: (c) => `Homework of ${c}`,
    none: 'No homework.',
    none_kid: 'No homework!',
    left: (n) => (n === 0 ? 'Done' : n === 1 ? '1 left' : `${n} left`),
    left_kid: (n) => (n === 0 ? 'Done!' : `${n} to go`),
    items: (n) => (n === 1 ? '1 item' : `${n} items`),
    due: (d) => `Due ${d}`,
    overdue: 'Overdue',
    retry_yes: 'A second try counts',
    retry_no: 'Only the first try counts',
    new_hw: 'Set homework',
    hw_title: 'Title',
    due_label: 'Due date',
    for_whom: 'For',
    whole_class: 'The whole class',
    chosen: 'Chosen pupils',
    retry: 'A second try counts',
    add_item: 'Add',
    kind: 'Item',
    kinds: {
      puzzles: 'Puzzles by theme and rating',
      puzzle: 'One puzzle by its id',
      game_puzzle: 'Puzzle from the class\'s games',
      stage: 'Course stage',
      engine_game: 'Game against the engine',
      position: 'Position to play out (FEN)',
      coords: 'Coordinates',
    },
    theme: 'Theme', any_theme: 'Any', min_rating: 'From', max_rating: 'To', count: 'How many',
    puzzle_id: 'Puzzle id', stage: 'Stage', level: 'Engine level', goal: 'Goal', fen: 'Position (FEN)',
    mode: 'Mode', mode_find: 'Find the square', mode_name: 'Name the square',
    goals: { gana_blancas: 'Win with White', gana_negras: 'Win with Black', tablas: 'Draw or win', gana: 'Win', tablas_pos: 'Draw or win' },
    list_items: 'The homework\'s items',
    no_items: 'No items yet: add some.',
    remove: 'Remove',
    set: 'Set the homework',
    set_done: (n) => `Homework set: ${n} items.`,
    open_grid: 'See results',
    delete: 'Delete',
    delete_confirm: 'Delete this homework and all its attempts?',
    grid: 'Results',
    pupil: 'Pupil',
    average: 'Average',
    csv: 'Download CSV',
    pdf: 'Print (PDF)',
    legend: 'Legend',
    states: { first_try: 'Solved first try', after_help: 'Solved with help', failed: 'Failed', not_done: 'Not done' },
    late: 'late',
    attempt: 'Attempt',
    attempt_of: (p, n) => `${p}, item ${n}`,
    time: (s) => `Time: ${s} s`,
    hints: (n) => `Hints: ${n}`,
    solved: 'Solved', not_solved: 'Not solved',
    first: 'Start', prev: 'Back', next: 'Next', last: 'End',
    exercise_n: (n, s) => `Exercise ${n}: ${s === null || s === undefined ? 'not met' : '★'.repeat(s)}`,
    answers: 'Answers',
    open_game: 'See the game',
    close: 'Close',
    back_hw: 'Back to the homework',
    back_list: 'All homework',
    back_class: 'Back to the class',
    play: 'Do it',
    again: 'Again',
    done_first: 'First try!',
    done_help: 'Solved with help',
    failed: 'Failed',
    not_done: 'To do',
    hint: 'Hint',
    hint_text: (piece, sq) => `Hint: move the piece on ${sq} (${piece}).`,
    your_move: 'Your move',
    watch: 'Watch the opponent\'s move…',
    right: 'Right! Go on.',
    sent: 'Saved.',
    wrong: 'Not that one.',
    give_up: 'Give up',
    coords_find: (sq) => `Touch the square ${sq}`,
    coords_name: 'Type the name of the marked square',
    coords_score: (r, n) => `${r} of ${n}`,
    send: 'Check',
    start: 'Start',
    game_start: 'Play the game',
    game_sent: 'Game handed in.',
    game_wait: (g) => `Your game ${g} is not over yet. Finish it and come back here.`,
    game_pick: 'Your game for this item',
    stage_send: 'Hand in the stage',
    stage_help: 'Do the stage\'s exercises; it is handed in when you finish (or press "Hand in the stage").',
    not_found: 'No such homework.',
    teachers_only: 'For the class\'s teachers only.',
    pick_pupils: 'Choose the pupils',
    title_default: 'Homework',
    parent_links: 'Links for families',
    parent_make: 'Make a link',
    parent_revoke: 'Revoke',
    parent_made: (p) => `Link made: ${p}`,
    parent_revoked: (n) => `${n} links revoked.`,
    stages_done: 'Course stages done in homework',
    games: 'Games of the last 30 days',
    with_white: 'with White', with_black: 'with Black',
    kind_names: { puzzle: 'Puzzle', game_puzzle: 'Puzzle', stage: 'Stage', coords: 'Coordinates', engine_game: 'Game against the engine', position: 'Position to play out' },
    game_puzzle_pick: 'Puzzle (pupil · game · move)',
    game_puzzles_none: 'No puzzles from the class\'s games yet (they come from analysing their games).',
    play_after: 'Play after homework',
    play_after_label: 'Pupils play freely only once their open homework is done',
    play_after_help: 'When this is on, in kid mode no free game starts (against the engine, challenges, seeks, rematches) while any item is left of a homework still before its due time. The homework\'s own games and the class\'s events are played.',
    play_after_on: 'On: homework first, then play.',
    play_after_off: 'Off: free play.',
    play_locked: 'Homework first',
    play_open: 'Homework done! You may play.',
    play_go: (t, n) => `Do “${t}” (${n} left)`,
  },
};

const THEMES = ['mateIn1', 'mateIn2', 'mateIn3', 'fork', 'pin', 'skewer', 'discoveredAttack',
  'hangingPiece', 'sacrifice', 'deflection', 'backRankMate', 'promotion', 'endgame', 'middlegame'];
const FILES = 'abcdefgh';
const enc = encodeURIComponent;
const h = (...a) => C.h(...a);
const STARS = { first_try: 3, after_help: 2, failed: 0, not_done: 0 };
const MARK = { first_try: '✓', after_help: '½', failed: '✗', not_done: '·' };
const ICON = { puzzle: '♞', game_puzzle: '♞', stage: '♙', coords: 'a1', engine_game: '♚', position: '♛' };

/** The kind of an item as its card names it: "Problema", "Etapa: El
 * tablero", "Coordenadas", "Partida contra el motor", "Posición para jugar". */
function kindName(it) {
  const k = X.kind_names[it.kind] || it.kind;
  if (it.kind !== 'stage') return k;
  const m = words(it).match(/[«“](.*)[»”]/);
  return m ? `${k}: ${m[1]}` : k;
}

function style() {
  if (document.getElementById('tr-style')) return;
  document.head.append(h('style', { id: 'tr-style' }, `
main.tr.tr { display: block; max-width: 1400px; }
main.tr.tr > * + * { margin-top: .8rem; }
main.tr h1 { overflow-wrap: anywhere; }
.tr-list { list-style: none; padding: 0; margin: 0; display: grid; gap: .6rem; grid-template-columns: repeat(auto-fill, minmax(min(100%, 20rem), 1fr)); }
.tr-list > li { background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: .6rem .8rem; }
.tr-list a.tr-open { font-weight: 700; font-size: 1.1rem; }
.tr-over { color: var(--low); font-weight: 700; }
.tr-form { display: flex; flex-wrap: wrap; gap: .5rem .8rem; align-items: end; }
.tr-form label { display: flex; flex-direction: column; gap: .15rem; max-width: 100%; }
.tr-form input, .tr-form select { max-width: 100%; }
.tr-form input[name=fen] { width: min(42ch, 80vw); }
.tr-form label.tr-check { flex-direction: row; align-items: center; gap: .3rem; }
.tr-items { padding-left: 1.4rem; }
.tr-items li { padding: .15rem 0; overflow-wrap: anywhere; }
.tr-items li button { margin-left: .5rem; padding: .1rem .4rem; font-size: .85em; }
.tr-pupils { display: flex; flex-wrap: wrap; gap: .2rem .9rem; max-height: 12rem; overflow: auto; }
.tr-scroll { overflow-x: auto; max-width: 100%; }
table.tr-grid { border-collapse: collapse; font-size: .95rem; }
table.tr-grid th, table.tr-grid td { border: 1px solid var(--line); padding: .2rem .35rem; text-align: center; }
table.tr-grid th.tr-name, table.tr-grid td.tr-name { text-align: left; white-space: nowrap; position: sticky; left: 0; background: var(--card); }
table.tr-grid thead th { font-size: .8rem; font-weight: 600; min-width: 4.5rem; max-width: 8rem; overflow-wrap: break-word; }
table.tr-grid td.tr-cell { min-width: 2rem; font-weight: 700; cursor: default; }
table.tr-grid td.tr-cell button { all: unset; cursor: pointer; display: block; width: 100%; }
table.tr-grid td.tr-cell button:focus-visible { outline: 3px solid var(--accent); }
.tr-s-first_try { background: #2e7d32; color: #fff; }
.tr-s-after_help { background: #f2c14e; color: #1d1d1b; }
.tr-s-failed { background: #c0392b; color: #fff; }
.tr-s-not_done { background: transparent; color: var(--muted); }
td.tr-late { box-shadow: inset 0 0 0 3px var(--low); }
td.tr-late::after { content: '!'; font-size: .7em; vertical-align: super; }
.tr-legend { display: flex; flex-wrap: wrap; gap: .3rem 1rem; list-style: none; padding: 0; }
.tr-legend span.sw { display: inline-block; min-width: 1.4rem; text-align: center; border-radius: 3px; font-weight: 700; margin-right: .3rem; border: 1px solid var(--line); }
.tr-attempt { margin-top: 1rem; }
.tr-replay { display: flex; flex-wrap: wrap; gap: 1rem; align-items: start; }
.tr-replay .board-wrap { width: min(360px, 90vw); }
.tr-san { display: flex; flex-wrap: wrap; gap: .2rem .5rem; list-style: none; padding: 0; }
.tr-san button { padding: .1rem .35rem; font-size: .9rem; }
.tr-san button.on { outline: 3px solid var(--accent); }
.tr-cards { list-style: none; padding: 0; display: grid; gap: .6rem; grid-template-columns: repeat(auto-fill, minmax(min(100%, 17rem), 1fr)); }
.tr-cards a { display: flex; gap: .6rem; align-items: center; padding: .6rem .8rem; border: 1px solid var(--line); border-radius: 8px; background: var(--card); text-decoration: none; color: inherit; }
.tr-cards a:hover, .tr-cards a:focus-visible { outline: 3px solid var(--accent); }
.tr-cards .ic { font-size: 1.8rem; width: 2.2rem; text-align: center; }
.tr-cards .st { margin-left: auto; color: #c98a00; font-size: 1.2rem; white-space: nowrap; }
.tr-cards li.s-failed .st { color: var(--low); }
.tr-cards .tr-what { display: flex; flex-direction: column; min-width: 0; overflow-wrap: anywhere; }
.tr-cards .tr-n { font-weight: 400; }
.tr-cards .tr-detail { font-size: .9rem; color: var(--muted, inherit); }
body.tr-kid .tr-cards .tr-what { align-items: center; }
body.tr-kid .tr-cards .tr-kind { font-size: 1.1rem; }
.tr-status { font-size: 1.1rem; min-height: 1.5rem; }
.tr-status.ok { color: var(--ok); font-weight: 700; } .tr-status.bad { color: var(--low); font-weight: 700; }
body.tr-kid main.tr h1 { font-size: 2.2rem; }
body.tr-kid .tr-cards { grid-template-columns: repeat(auto-fill, minmax(min(100%, 13rem), 1fr)); }
body.tr-kid .tr-cards a { flex-direction: column; font-size: 1.3rem; padding: 1rem; text-align: center; }
body.tr-kid .tr-cards .ic { font-size: 3rem; width: auto; }
body.tr-kid .tr-cards .st { margin: 0; font-size: 2rem; }
body.tr-kid .tr-status { font-size: 1.6rem; }
body.tr-kid .tr-play .board-wrap { width: min(calc(100vh - 9rem), 96vw, 900px); }
body.tr-kid .tr-list a.tr-open { font-size: 1.6rem; }
body.tr-kid .tr-play button { font-size: 1.3rem; padding: .6rem 1rem; }
#tr-stage > h1 { display: none; }
#tr-stage .game:has(#ap-help:not(:empty)) .ap-board-none { display: block; }
.tr-head { display: flex; flex-wrap: wrap; gap: .3rem 1rem; align-items: baseline; }
.tr-head h1 { margin: .2rem 0; }
body.tr-kid .tr-play #tr-stage-send { font-size: 1rem; padding: .3rem .7rem; }
@media print { header.top, .no-print, #error { display: none !important; } }
`));
}

function dateText(ms) {
  return new Date(ms).toLocaleString(C.LANG, { weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' });
}
const stars = (n) => '★'.repeat(n) + '☆'.repeat(3 - n);
const words = (x) => (C.LANG === 'en' ? x.en : x.es);

function status(el, text, kind) {
  el.textContent = text;
  el.className = `tr-status${kind ? ` ${kind}` : ''}`;
  C.say(text);
}

export async function route(path, el, me, helpers) {
  C = helpers;
  X = TEXTS[C.LANG] || TEXTS.es;
  style();
  el.classList.add('tr');
  document.title = `${X.title} · escaque`;
  document.body.classList.toggle('tr-kid', !!(me && me.managed));
  let m;
  if ((m = path.match(/^\/clases\/([A-Za-z0-9]+)\/tareas$/))) await listPage(el, me, m[1]);
  else if ((m = path.match(/^\/clases\/([A-Za-z0-9]+)\/tareas\/([A-Za-z0-9]+)$/))) await homeworkPage(el, me, m[1], m[2]);
  else if ((m = path.match(/^\/clases\/([A-Za-z0-9]+)\/tareas\/([A-Za-z0-9]+)\/([0-9]+)$/))) await itemPage(el, me, m[1], m[2], Number(m[3]) - 1);
  else if ((m = path.match(/^\/familia\/([A-Za-z0-9_-]+)$/))) await familyPage(el, m[1]);
  else el.append(h('p', { class: 'error' }, X.not_found));
}

// ------------------------------------------------------------------ a family's page

/** A parent's read-only page: the pupil's homework, stages and games. */
async function familyPage(el, token) {
  let v;
  try { v = await C.api('GET', `/api/familia/${enc(token)}`); } catch (e) { el.append(h('p', { class: 'error', id: 'tr-family-error' }, e.message)); return; }
  el.append(h('h1', { id: 'tr-title' }, `${v.pupil} · ${v.class_name}`),
    h('h2', {}, X.title),
    v.homework.length ? h('ul', { id: 'tr-family-homework', class: 'tr-list' }, v.homework.map((hw) => h('li', { 'data-homework': hw.id },
      h('strong', {}, hw.title), h('p', {}, X.due(dateText(hw.due_ms))),
      h('ol', { class: 'tr-items' }, hw.labels.map((l, i) => h('li', { 'data-state': hw.cells[i].state },
        `${l}: ${X.states[hw.cells[i].state]}${hw.cells[i].overdue ? ` (${X.late})` : ''}`))))))
      : h('p', { class: 'muted' }, X.none),
    h('h2', {}, X.stages_done),
    h('p', { id: 'tr-family-stages' }, v.stages_done.length ? v.stages_done.join(', ') : '—'),
    h('h2', {}, X.games),
    h('ul', { id: 'tr-family-games', class: 'tr-items' }, v.games.map((g) => h('li', {},
      `${dateText(g.ended_ms)} · ${g.white ? X.with_white : X.with_black} · ${g.result}`))));
}

// ------------------------------------------------------------------ the list

async function listPage(el, me, id) {
  const base = `/api/classes/${enc(id)}`;
  let cls; let list;
  try { [cls, list] = await Promise.all([C.api('GET', base), C.api('GET', `${base}/tareas`)]); } catch (e) {
    el.append(h('p', { class: 'error' }, e.message)); return;
  }
  const teacher = list.role === 'teacher';
  const kid = !teacher && me && me.managed;
  el.append(h('p', { class: 'no-print' }, h('a', { href: `/clases/${enc(id)}`, id: 'tr-back-class' }, X.back_class)),
    h('h1', { id: 'tr-title' }, kid ? X.title : X.homework_of(cls.name)));
  const rows = list.homework || [];
  if (!rows.length) el.append(h('p', { id: 'tr-none', class: 'muted' }, kid ? X.none_kid : X.none));
  else {
    el.append(h('ul', { id: 'tr-list', class: 'tr-list' }, rows.map((hw) => h('li', { 'data-homework': hw.id, 'data-left': hw.left === null ? null : String(hw.left) },
      h('a', { class: 'tr-open', href: `/clases/${enc(id)}/tareas/${enc(hw.id)}` }, hw.title),
      h('p', {}, kid ? '' : `${X.items(hw.items)} · `, X.due(dateText(hw.due_ms)),
        hw.overdue ? h('span', { class: 'tr-over' }, ` · ${X.overdue}`) : ''),
      hw.left === null || hw.left === undefined ? h('p', { class: 'muted' }, hw.retry ? X.retry_yes : X.retry_no)
        : h('p', { class: 'tr-left', 'data-left': String(hw.left) }, kid ? X.left_kid(hw.left) : X.left(hw.left))))));
  }
  if (teacher) await newForm(el, id, cls);
}

/** The teacher's form: the items one by one, for whom, second try, due. */
async function newForm(el, id, cls) {
  const base = `/api/classes/${enc(id)}`;
  let course = { stages: [] };
  try { course = await C.api('GET', '/api/aprender'); } catch { /* stages left out */ }
  let found = [];
  try { found = (await C.api('GET', `${base}/problemas-partidas`)).puzzles || []; } catch { /* none listed */ }
  const items = [];
  const itemList = h('ol', { id: 'tr-items', class: 'tr-items' });
  const msg = h('p', { id: 'tr-form-msg', class: 'tr-status', role: 'status' });
  const sel = (name, opts, value) => h('select', { name, id: `tr-f-${name}` }, opts.map(([v, l]) => h('option', { value: v, selected: v === value }, l)));
  const num = (name, min, max, value) => h('input', { name, id: `tr-f-${name}`, type: 'number', min, max, value, inputmode: 'numeric', size: 5 });
  const kind = sel('kind', Object.entries(X.kinds), 'puzzles');
  const f = {
    theme: sel('theme', [['', X.any_theme], ...THEMES.map((k) => [k, (C.t.pz && C.t.pz.theme_names && C.t.pz.theme_names[k]) || k])], ''),
    min_rating: num('min_rating', 0, 3500, ''),
    max_rating: num('max_rating', 0, 3500, ''),
    count: num('count', 1, 50, 5),
    id: h('input', { name: 'id', id: 'tr-f-id', size: 10, autocomplete: 'off' }),
    stage: sel('stage', course.stages.map((s) => [s.id, `${s.number}. ${words(s.title)}`]), course.stages.length ? course.stages[0].id : ''),
    level: num('level', 1, 10, 3),
    goal: sel('goal', [['gana_blancas', X.goals.gana_blancas], ['gana_negras', X.goals.gana_negras], ['tablas', X.goals.tablas]], 'gana_blancas'),
    pgoal: sel('pgoal', [['gana', X.goals.gana], ['tablas', X.goals.tablas_pos]], 'gana'),
    fen: h('input', { name: 'fen', id: 'tr-f-fen', autocomplete: 'off', spellcheck: 'false', value: '4k3/8/8/8/8/8/8/3QK3 w - - 0 1' }),
    mode: sel('mode', [['buscar', X.mode_find], ['nombrar', X.mode_name]], 'buscar'),
    ccount: num('ccount', 1, 50, 10),
    plevel: num('plevel', 1, 10, 3),
    gp: sel('gp', found.map((p) => [p.id, words(p)]), found.length ? found[0].id : ''),
  };
  const lab = (text, input) => h('label', { 'data-field': input.name }, text, input);
  const fields = {
    puzzles: [lab(X.theme, f.theme), lab(X.min_rating, f.min_rating), lab(X.max_rating, f.max_rating), lab(X.count, f.count)],
    puzzle: [lab(X.puzzle_id, f.id)],
    game_puzzle: found.length ? [lab(X.game_puzzle_pick, f.gp)] : [h('p', { class: 'muted', id: 'tr-gp-none' }, X.game_puzzles_none)],
    stage: [lab(X.stage, f.stage)],
    engine_game: [lab(X.level, f.level), lab(X.goal, f.goal)],
    position: [lab(X.fen, f.fen), lab(X.level, f.plevel), lab(X.goal, f.pgoal)],
    coords: [lab(X.mode, f.mode), lab(X.count, f.ccount)],
  };
  const fieldBox = h('div', { class: 'tr-form', id: 'tr-fields' });
  const showFields = () => fieldBox.replaceChildren(...fields[kind.value]);
  kind.addEventListener('change', showFields);
  const intOr = (input) => (input.value.trim() === '' ? undefined : Number(input.value));
  const label = (it) => {
    const k = X.kinds[it.kind];
    switch (it.kind) {
      case 'puzzles': return `${it.count} × ${k}${it.theme ? ` · ${f.theme.querySelector(`option[value="${it.theme}"]`).textContent}` : ''}${it.min_rating || it.max_rating ? ` · ${it.min_rating || '…'}–${it.max_rating || '…'}` : ''}`;
      case 'puzzle': return `${k}: ${it.id}`;
      case 'game_puzzle': return `${k}: ${f.gp.querySelector(`option[value="${it.id}"]`).textContent}`;
      case 'stage': return `${k}: ${f.stage.querySelector(`option[value="${it.stage}"]`).textContent}`;
      case 'engine_game': return `${k} (${X.level} ${it.level}): ${X.goals[it.goal]}`;
      case 'position': return `${k} (${X.level} ${it.level}): ${it.fen} · ${X.goals[it.goal]}`;
      default: return `${k}: ${it.count} · ${it.mode === 'buscar' ? X.mode_find : X.mode_name}`;
    }
  };
  const weight = (it) => (it.kind === 'puzzles' ? it.count : 1);
  const drawItems = () => {
    itemList.replaceChildren(...(items.length ? items.map((it, i) => h('li', { 'data-kind': it.kind }, label(it),
      h('button', { type: 'button', class: 'secondary tr-remove', 'aria-label': `${X.remove} ${i + 1}`, onclick: () => { items.splice(i, 1); drawItems(); } }, X.remove)))
      : [h('li', { class: 'muted' }, X.no_items)]));
    itemList.dataset.count = String(items.reduce((a, it) => a + weight(it), 0));
  };
  const add = h('button', {
    type: 'button', id: 'tr-add',
    onclick: () => {
      let it;
      switch (kind.value) {
        case 'puzzles': it = { kind: 'puzzles', theme: f.theme.value || undefined, min_rating: intOr(f.min_rating), max_rating: intOr(f.max_rating), count: intOr(f.count) || 1 }; break;
        case 'puzzle': if (!f.id.value.trim()) return; it = { kind: 'puzzle', id: f.id.value.trim() }; break;
        case 'game_puzzle': if (!f.gp.value) return; it = { kind: 'game_puzzle', id: f.gp.value }; break;
        case 'stage': it = { kind: 'stage', stage: f.stage.value }; break;
        case 'engine_game': it = { kind: 'engine_game', level: intOr(f.level) || 1, goal: f.goal.value }; break;
        case 'position': it = { kind: 'position', fen: f.fen.value.trim(), level: intOr(f.plevel) || 1, goal: f.pgoal.value }; break;
        default: it = { kind: 'coords', mode: f.mode.value, count: intOr(f.ccount) || 1 };
      }
      items.push(it);
      drawItems();
      status(msg, '');
    },
  }, X.add_item);
  const due = new Date(Date.now() + 7 * 86400000);
  due.setHours(20, 0, 0, 0);
  const pad = (n) => String(n).padStart(2, '0');
  const local = (d) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
  const title = h('input', { id: 'tr-title-in', maxlength: 80, required: true, autocomplete: 'off', value: '' });
  const dueIn = h('input', { id: 'tr-due', type: 'datetime-local', value: local(due), required: true });
  const retry = h('input', { id: 'tr-retry', type: 'checkbox' });
  const whole = h('input', { type: 'radio', name: 'tr-for', id: 'tr-for-all', value: 'all', checked: true });
  const some = h('input', { type: 'radio', name: 'tr-for', id: 'tr-for-some', value: 'some' });
  const pupils = (cls.pupils || []).filter((p) => !p.archived);
  const pupilBox = h('fieldset', { id: 'tr-pupils', class: 'tr-pupils', hidden: true }, h('legend', {}, X.pick_pupils),
    pupils.map((p) => h('label', { class: 'tr-check' }, h('input', { type: 'checkbox', value: p.name, 'data-pupil': p.name }), ` ${p.name} (${p.real_name})`)));
  for (const r of [whole, some]) r.addEventListener('change', () => { pupilBox.hidden = !some.checked; });
  const submit = h('button', { type: 'submit', id: 'tr-set' }, X.set);
  const form = h('form', {
    id: 'tr-new',
    onsubmit: async (e) => {
      e.preventDefault();
      const body = {
        title: title.value.trim() || X.title_default,
        due_ms: new Date(dueIn.value).getTime(),
        retry: retry.checked,
        items,
      };
      if (some.checked) body.pupils = [...pupilBox.querySelectorAll('input:checked')].map((x) => x.value);
      submit.disabled = true;
      try {
        const r = await C.api('POST', `${base}/tareas`, body);
        status(msg, X.set_done(r.items), 'ok');
        location.href = `/clases/${enc(id)}/tareas/${enc(r.id)}`;
      } catch (err) { status(msg, `${C.t.error}: ${err.message}`, 'bad'); submit.disabled = false; }
    },
  },
  h('div', { class: 'tr-form' }, h('label', {}, X.hw_title, title), h('label', {}, X.due_label, dueIn),
    h('label', { class: 'tr-check' }, retry, ` ${X.retry}`)),
  h('fieldset', { class: 'tr-form' }, h('legend', {}, X.for_whom),
    h('label', { class: 'tr-check' }, whole, ` ${X.whole_class}`), h('label', { class: 'tr-check' }, some, ` ${X.chosen}`)),
  pupilBox,
  h('fieldset', {}, h('legend', {}, X.kind),
    h('div', { class: 'tr-form' }, h('label', {}, X.kind, kind), fieldBox, add)),
  h('h3', {}, X.list_items), itemList,
  h('p', {}, submit), msg);
  showFields();
  drawItems();
  el.append(h('section', { class: 'card no-print', id: 'tr-new-card' }, h('h2', {}, X.new_hw), form));
}

// ------------------------------------------------------------------ one homework

async function homeworkPage(el, me, id, hwId) {
  const base = `/api/classes/${enc(id)}/tareas/${enc(hwId)}`;
  let view;
  try { view = await C.api('GET', base); } catch (e) { el.append(h('p', { class: 'error' }, e.status === 404 ? X.not_found : e.message)); return; }
  el.append(h('p', { class: 'no-print' }, h('a', { href: `/clases/${enc(id)}/tareas`, id: 'tr-back-list' }, X.back_list)));
  if (view.left === null || view.left === undefined) await gridPage(el, id, hwId, view);
  else await pupilHomework(el, me, id, hwId, view);
}

/** A pupil's homework: the items as cards with stars, what is left; a game
 * item whose game is over is handed in here. */
async function pupilHomework(el, me, id, hwId, view) {
  const kid = me && me.managed;
  await handInGames(id, hwId, view);
  try { view = await C.api('GET', `/api/classes/${enc(id)}/tareas/${enc(hwId)}`); } catch { /* as it was */ }
  el.append(h('h1', { id: 'tr-title' }, view.title),
    h('p', { id: 'tr-left', class: 'tr-status', 'data-left': String(view.left) }, kid ? X.left_kid(view.left) : X.left(view.left),
      kid ? '' : ` · ${X.due(dateText(view.due_ms))}`, view.overdue ? h('span', { class: 'tr-over' }, ` · ${X.overdue}`) : ''),
    kid ? '' : h('p', { class: 'muted' }, view.retry ? X.retry_yes : X.retry_no),
    h('ol', { id: 'tr-cards', class: 'tr-cards' }, view.items.map((it) => {
      const n = STARS[it.state] || 0;
      const st = it.state === 'failed' ? '✗' : it.state === 'not_done' ? '' : stars(n);
      return h('li', { 'data-idx': String(it.idx), 'data-state': it.state, class: `s-${it.state}` },
        h('a', { href: `/clases/${enc(id)}/tareas/${enc(view.id)}/${it.idx + 1}`, 'aria-label': `${it.idx + 1}. ${words(it)}. ${stateWords(it.state)}` },
          h('span', { class: 'ic', 'aria-hidden': 'true' }, ICON[it.kind] || '•'),
          h('span', { class: 'tr-what' }, h('span', { class: 'tr-n' }, `${it.idx + 1}. `), h('strong', { class: 'tr-kind' }, kindName(it)),
            kid ? '' : h('span', { class: 'tr-detail' }, words(it))),
          h('span', { class: 'st', 'aria-hidden': 'true' }, st)));
    })));
}

function stateWords(s) {
  return { first_try: X.done_first, after_help: X.done_help, failed: X.failed, not_done: X.not_done }[s] || s;
}

const gameKey = (hwId, idx) => `tarea-partida:${hwId}:${idx}`;
function stored(k) { try { return localStorage.getItem(k); } catch { return null; } }
function forget(k) { try { localStorage.removeItem(k); } catch { /* private mode */ } }

/** Every game item whose game (kept in this browser) is over is sent. */
async function handInGames(id, hwId, view) {
  for (const it of view.items) {
    if (it.kind !== 'engine_game' && it.kind !== 'position') continue;
    const g = stored(gameKey(hwId, it.idx));
    if (!g) continue;
    let st;
    try { st = await C.api('GET', `/api/games/${enc(g)}`); } catch { forget(gameKey(hwId, it.idx)); continue; }
    if (st.status !== 'over') continue;
    try {
      await C.api('POST', `/api/classes/${enc(id)}/tareas/${enc(hwId)}/items/${it.idx}/intentos`, { game: g, time_ms: 0, hints: 0 });
    } catch (e) { C.showError(e); }
    forget(gameKey(hwId, it.idx));
  }
}

// ------------------------------------------------------------------ the grid

async function gridPage(el, id, hwId, view) {
  const base = `/api/classes/${enc(id)}/tareas/${enc(hwId)}`;
  let g;
  try { g = await C.api('GET', `${base}/grid`); } catch (e) { el.append(h('p', { class: 'error' }, e.message)); return; }
  const attemptBox = h('section', { id: 'tr-attempt', class: 'card tr-attempt', hidden: true, 'aria-live': 'polite' });
  const head = h('tr', {}, h('th', { class: 'tr-name', scope: 'col' }, X.pupil),
    g.items.map((it) => h('th', { scope: 'col', title: words(view.items[it.idx] || { es: it.label, en: it.label }) }, it.label)),
    h('th', { scope: 'col' }, X.average));
  const body = g.pupils.map((p) => h('tr', { 'data-pupil': p.name },
    h('th', { class: 'tr-name', scope: 'row' }, p.real_name ? `${p.real_name} (${p.name})` : p.name),
    p.cells.map((c, i) => {
      const txt = `${p.name}, ${g.items[i].label}: ${X.states[c.state]}${c.overdue ? ` (${X.late})` : ''}${c.attempts ? ` · ${c.attempts}×` : ''}`;
      const mark = MARK[c.state];
      return h('td', {
        class: `tr-cell tr-s-${c.state}${c.overdue ? ' tr-late' : ''}`, 'data-idx': String(i), 'data-state': c.state,
        'data-overdue': c.overdue ? '1' : '0', 'data-attempts': String(c.attempts), title: txt,
      }, c.attempt ? h('button', { type: 'button', 'aria-label': txt, 'data-attempt': c.attempt, onclick: () => openAttempt(c.attempt, p, i) }, mark)
        : h('span', { 'aria-label': txt }, mark));
    }),
    h('td', { class: 'tr-avg', 'data-average': String(p.average) }, `${p.average}`)));
  const foot = h('tr', { id: 'tr-averages' }, h('th', { class: 'tr-name', scope: 'row' }, X.average),
    g.items.map((it) => h('td', { class: 'tr-avg', 'data-idx': String(it.idx), 'data-average': String(it.average) }, `${it.average}`)), h('td', {}));
  const legend = h('ul', { class: 'tr-legend', 'aria-label': X.legend },
    Object.keys(X.states).map((s) => h('li', {}, h('span', { class: `sw tr-s-${s}` }, MARK[s]), X.states[s])),
    h('li', {}, h('span', { class: 'sw', style: 'box-shadow: inset 0 0 0 3px var(--low)' }, '!'), X.late));
  const parentSel = h('select', { id: 'tr-parent-pupil', 'aria-label': X.pupil }, g.pupils.map((p) => h('option', { value: p.name }, p.name)));
  const parentMsg = h('p', { id: 'tr-parent-msg', class: 'tr-status', role: 'status' });
  el.append(h('h1', { id: 'tr-title' }, g.title),
    h('p', {}, X.due(dateText(g.due_ms)), g.overdue ? h('span', { class: 'tr-over' }, ` · ${X.overdue}`) : '',
      ` · ${view.retry ? X.retry_yes : X.retry_no}`),
    h('p', { class: 'no-print cl-links' },
      h('a', { href: `${base}/grid.csv`, id: 'tr-csv', class: 'button', download: '' }, X.csv), ' ',
      h('a', { href: `${base}/grid.pdf`, id: 'tr-pdf', class: 'button' }, X.pdf), ' ',
      h('button', {
        type: 'button', id: 'tr-delete', class: 'secondary',
        onclick: async () => {
          if (!window.confirm(X.delete_confirm)) return;
          try { await C.api('DELETE', base); location.href = `/clases/${enc(id)}/tareas`; } catch (e) { C.showError(e); }
        },
      }, X.delete)),
    legend,
    h('div', { class: 'tr-scroll' }, h('table', { id: 'tr-grid', class: 'tr-grid' }, h('thead', {}, head), h('tbody', {}, body), h('tfoot', {}, foot))),
    attemptBox,
    h('section', { class: 'card no-print', id: 'tr-parents' }, h('h2', {}, X.parent_links),
      h('div', { class: 'tr-form' }, h('label', {}, X.pupil, parentSel),
        h('button', {
          type: 'button', id: 'tr-parent-make',
          onclick: async () => {
            try {
              const r = await C.api('POST', `/api/classes/${enc(id)}/pupils/${enc(parentSel.value)}/familia`, {});
              status(parentMsg, X.parent_made(`${location.origin}${r.path}`), 'ok');
            } catch (e) { status(parentMsg, e.message, 'bad'); }
          },
        }, X.parent_make),
        h('button', {
          type: 'button', id: 'tr-parent-revoke', class: 'secondary',
          onclick: async () => {
            try {
              const r = await C.api('POST', `/api/classes/${enc(id)}/pupils/${enc(parentSel.value)}/familia/revocar`, {});
              status(parentMsg, X.parent_revoked(r.revoked), 'ok');
            } catch (e) { status(parentMsg, e.message, 'bad'); }
          },
        }, X.parent_revoke)), parentMsg));

  async function openAttempt(att, p, i) {
    let a;
    try { a = await C.api('GET', `${base}/intentos/${enc(att)}`); } catch (e) { C.showError(e); return; }
    attemptBox.hidden = false;
    attemptBox.dataset.attempt = a.id;
    const info = h('p', {}, `${a.solved ? X.solved : X.not_solved} · ${X.time(Math.round(a.time_ms / 1000))} · ${X.hints(a.hints)} · ${words(a)}`);
    const kids = [h('h2', {}, X.attempt_of(p.real_name || p.name, i + 1)), info];
    if (a.fen) kids.push(replay(a));
    if (a.exercises && a.exercises.length) {
      kids.push(h('ol', { class: 'tr-items', id: 'tr-attempt-exercises' }, a.exercises.map((x) => h('li', { 'data-stars': x.stars === null ? '' : String(x.stars) }, X.exercise_n(x.exercise + 1, x.stars), ` (${x.tries})`))));
    }
    if (a.answers && a.answers.length) kids.push(h('p', { id: 'tr-attempt-answers' }, `${X.answers}: ${a.answers.join(' ')}`));
    if (a.game) kids.push(h('p', {}, h('a', { href: `/mis-partidas/${enc(a.game)}` }, X.open_game)));
    kids.push(h('button', { type: 'button', class: 'secondary', onclick: () => { attemptBox.hidden = true; } }, X.close));
    attemptBox.replaceChildren(...kids);
    attemptBox.scrollIntoView({ block: 'nearest' });
  }
}

/** An attempt move by move: the board at each position the server sent. */
function replay(a) {
  const boardEl = h('div', { id: 'tr-replay-board', class: 'board' });
  const sanList = h('ol', { class: 'tr-san', id: 'tr-replay-moves' });
  const fens = [a.fen, ...(a.fens || [])];
  let k = 0;
  const orientation = a.kind === 'puzzle' ? ((a.fen.split(' ')[1] === 'w') ? 'black' : 'white') : (a.fen.split(' ')[1] === 'b' ? 'black' : 'white');
  const box = h('div', { class: 'tr-replay' }, h('div', { class: 'board-wrap' }, boardEl),
    h('div', {}, h('div', { class: 'row' },
      h('button', { type: 'button', id: 'tr-first', onclick: () => go(0) }, `« ${X.first}`), ' ',
      h('button', { type: 'button', id: 'tr-prev', onclick: () => go(k - 1) }, `◀ ${X.prev}`), ' ',
      h('button', { type: 'button', id: 'tr-next', onclick: () => go(k + 1) }, `${X.next} ▶`), ' ',
      h('button', { type: 'button', id: 'tr-last', onclick: () => go(fens.length - 1) }, `${X.last} »`)),
    sanList));
  let cg = null;
  function go(n) {
    k = Math.max(0, Math.min(fens.length - 1, n));
    const mv = k > 0 ? a.moves[k - 1] : null;
    if (!cg) { cg = C.Chessground(boardEl, { viewOnly: true, coordinates: true, orientation, fen: fens[k] }); window.escaqueReplay = cg; }
    cg.set({ fen: fens[k], lastMove: mv ? [mv.slice(0, 2), mv.slice(2, 4)] : undefined });
    boardEl.dataset.ply = String(k);
    for (const b of sanList.querySelectorAll('button')) b.classList.toggle('on', Number(b.dataset.ply) === k);
    C.say(k > 0 ? a.san[k - 1] : X.first);
  }
  sanList.append(...a.san.map((s, i) => h('li', {}, h('button', { type: 'button', class: 'secondary', 'data-ply': String(i + 1), onclick: () => go(i + 1) }, `${i + 1}. ${s}`))));
  setTimeout(() => go(0), 0);
  return box;
}

// ------------------------------------------------------------------ one item

async function itemPage(el, me, id, hwId, idx) {
  const base = `/api/classes/${enc(id)}/tareas/${enc(hwId)}`;
  let view;
  try { view = await C.api('GET', base); } catch (e) { el.append(h('p', { class: 'error' }, e.status === 404 ? X.not_found : e.message)); return; }
  const it = view.items[idx];
  if (!it || view.left === null) { el.append(h('p', { class: 'error' }, X.not_found)); return; }
  const statusEl = h('p', { id: 'tr-status', class: 'tr-status', role: 'status' });
  const stateEl = h('p', { id: 'tr-state', 'data-state': it.state }, stateWords(it.state), it.state === 'not_done' ? '' : ` ${it.state === 'failed' ? '' : stars(STARS[it.state])}`);
  el.classList.add('tr-play');
  el.append(h('p', { class: 'no-print' }, h('a', { href: `/clases/${enc(id)}/tareas/${enc(hwId)}`, id: 'tr-back-hw' }, X.back_hw)),
    h('div', { class: 'tr-head' }, h('h1', { id: 'tr-title' }, `${view.title} · ${idx + 1}`), stateEl),
    h('p', { id: 'tr-task', class: 'tr-status' }, words(it)));
  const send = async (body) => {
    let r;
    try { r = await C.api('POST', `${base}/items/${idx}/intentos`, body); } catch (e) { status(statusEl, `${C.t.error}: ${e.message}`, 'bad'); return null; }
    stateEl.dataset.state = r.state;
    stateEl.textContent = `${stateWords(r.state)} ${r.state === 'first_try' || r.state === 'after_help' ? stars(STARS[r.state]) : ''}`;
    el.dataset.sent = r.attempt;
    el.dataset.left = String(r.left);
    status(statusEl, `${r.solved ? (r.clean ? X.done_first : X.done_help) : X.failed} ${words(r)}`.trim(), r.solved ? 'ok' : 'bad');
    return r;
  };
  if (it.kind === 'puzzle') await puzzleItem(el, it, statusEl, send);
  else if (it.kind === 'game_puzzle') await puzzleItem(el, it, statusEl, send, `${base}/items/${idx}/jugada`);
  else if (it.kind === 'coords') coordsItem(el, it, statusEl, send);
  else if (it.kind === 'stage') await stageItem(el, me, it, statusEl, send);
  else gameItem(el, id, hwId, it, statusEl);
}

/** A puzzle played through the trainer's routes (a shipped puzzle) or the
 * homework's own step route `stepUrl` (a puzzle from the class's games, which
 * the trainer serves to its own player only), then handed in. */
async function puzzleItem(el, it, statusEl, send, stepUrl) {
  const boardEl = h('div', { id: 'tr-board', class: 'board' });
  const hintBtn = h('button', { id: 'tr-hint', type: 'button', class: 'secondary' }, X.hint);
  const againBtn = h('button', { id: 'tr-again', type: 'button', hidden: true }, X.again);
  el.append(h('div', { class: 'game' }, h('div', { class: 'board-col' }, h('div', { class: 'board-wrap' }, boardEl)),
    h('div', { class: 'side' }, statusEl, h('p', { class: 'row' }, hintBtn, ' ', againBtn))));
  const cg = C.Chessground(boardEl, {
    coordinates: true, autoCastle: true, animation: { enabled: true, duration: 200 },
    highlight: { lastMove: true, check: true },
    movable: { free: false, color: undefined, showDests: true, dests: new Map(), events: { after: (o, d) => played(o, d) } },
    premovable: { enabled: false }, draggable: { enabled: true, showGhost: true },
  });
  window.escaqueTareaBoard = cg;
  boardKeys(cg, boardEl, { t: C.t, say: C.say, mine: () => cg.state.movable.color || null, myTurn: () => true });
  let served = null; let moves = []; let hints = 0; let done = false; let t0 = Date.now();
  const dests = (legal) => new Map(Object.entries(legal || {}));
  const lock = () => cg.set({ movable: { color: undefined, dests: new Map() } });
  async function start() {
    done = false; moves = []; hints = 0; t0 = Date.now();
    againBtn.hidden = true; hintBtn.disabled = false;
    delete boardEl.dataset.ready;
    try {
      if (stepUrl) {
        const r = await C.api('POST', stepUrl, { moves: [] });
        served = { attempt: null, puzzle: { fen: r.fen, solver: r.solver, first_move: r.first_move, legal: r.legal } };
      } else served = await C.api('GET', `/api/puzzles/next?puzzle=${enc(it.reference)}`);
    } catch (e) { status(statusEl, e.message, 'bad'); return; }
    const p = served.puzzle;
    cg.set({ fen: p.fen, orientation: p.solver, lastMove: undefined, turnColor: (p.fen.split(' ')[1] === 'b' ? 'black' : 'white'), movable: { color: undefined, dests: new Map() }, drawable: { autoShapes: [] } });
    status(statusEl, X.watch);
    setTimeout(() => {
      cg.move(p.first_move.slice(0, 2), p.first_move.slice(2, 4));
      cg.set({ turnColor: p.solver, movable: { color: p.solver, dests: dests(p.legal) } });
      status(statusEl, X.your_move);
      boardEl.dataset.ready = '1';
    }, 400);
  }
  async function finish() {
    done = true; lock(); hintBtn.disabled = true;
    await send({ moves, time_ms: Math.max(0, Date.now() - t0), hints });
    againBtn.hidden = false;
  }
  async function played(orig, dest) {
    if (!served || done) return;
    const pc = cg.state.pieces.get(dest);
    const uci = pc && pc.role === 'pawn' && (dest[1] === '8' || dest[1] === '1') ? `${orig}${dest}q` : `${orig}${dest}`;
    moves = moves.concat([uci]);
    lock();
    let r;
    try {
      r = stepUrl ? await C.api('POST', stepUrl, { moves })
        : await C.api('POST', `/api/puzzles/attempts/${served.attempt}/answer`, { moves, time_ms: Math.max(0, Date.now() - t0) });
    } catch (e) { status(statusEl, e.message, 'bad'); return; }
    if (r.state === 'continue') {
      setTimeout(() => {
        cg.move(r.reply.slice(0, 2), r.reply.slice(2, 4));
        cg.set({ turnColor: served.puzzle.solver, movable: { color: served.puzzle.solver, dests: dests(r.legal) } });
        status(statusEl, X.right);
      }, 300);
    } else {
      if (r.state !== 'solved') status(statusEl, X.wrong, 'bad');
      await finish();
    }
  }
  hintBtn.addEventListener('click', async () => {
    if (!served || done) return;
    try {
      const r = stepUrl ? await C.api('POST', stepUrl, { moves, hint: true }).then((x) => ({ square: x.hint, piece_es: x.piece_es, piece_en: x.piece_en }))
        : await C.api('POST', `/api/puzzles/attempts/${served.attempt}/hint`, { moves, time_ms: 0 });
      hints += 1;
      cg.set({ drawable: { autoShapes: [{ orig: r.square, brush: 'green' }] } });
      status(statusEl, X.hint_text(C.LANG === 'es' ? r.piece_es : r.piece_en, r.square));
    } catch (e) { C.showError(e); }
  });
  againBtn.addEventListener('click', start);
  await start();
}

/** The server's coordinates trainer (escaque_play::aprender::coords), the
 * same xorshift64* from the item's seed: the squares the server replays. */
function trainer(seed) {
  const M = (1n << 64n) - 1n;
  let state = (BigInt(seed) ^ 0x9E3779B97F4A7C15n) & M;
  const draw = (not) => {
    for (;;) {
      state ^= state >> 12n;
      state = (state ^ (state << 25n)) & M;
      state ^= state >> 27n;
      const n = Number(((state * 0x2545F4914F6CDD1Dn) & M) >> 58n);
      const sq = FILES[n % 8] + String(1 + Math.floor(n / 8));
      if (sq !== not) return sq;
    }
  };
  const t = { current: draw(null), right: 0, wrong: 0 };
  t.answer = (sq) => {
    if (sq === t.current) { t.right += 1; t.current = draw(t.current); return true; }
    t.wrong += 1; return false;
  };
  return t;
}

function coordsItem(el, it, statusEl, send) {
  const find = it.reference !== 'nombrar';
  const boardEl = h('div', { id: 'tr-board', class: 'board' });
  const task = h('p', { id: 'tr-coords-task', class: 'tr-status' });
  const score = h('p', { id: 'tr-coords-score' });
  const nameIn = h('input', { id: 'tr-coords-name', autocomplete: 'off', size: 4, 'aria-label': X.coords_name });
  const nameForm = h('form', { hidden: find, onsubmit: (e) => { e.preventDefault(); answer(nameIn.value.trim().toLowerCase()); nameIn.value = ''; } },
    nameIn, ' ', h('button', { type: 'submit' }, X.send));
  const startBtn = h('button', { id: 'tr-coords-start', type: 'button', onclick: () => begin() }, X.start);
  const giveUp = h('button', { id: 'tr-coords-give-up', type: 'button', class: 'secondary', hidden: true }, X.give_up);
  el.append(h('div', { class: 'game' }, h('div', { class: 'board-col' }, h('div', { class: 'board-wrap' }, boardEl)),
    h('div', { class: 'side' }, startBtn, task, nameForm, score, statusEl, h('p', {}, giveUp))));
  const cg = C.Chessground(boardEl, { coordinates: false, viewOnly: false, movable: { color: undefined }, drawable: { enabled: false }, fen: '8/8/8/8/8/8/8/8 w - - 0 1', events: { select: (sq) => { if (run && find) answer(sq); } } });
  window.escaqueTareaBoard = cg;
  let run = null;
  function begin() {
    run = { t: trainer(it.seed), answers: [], t0: Date.now() };
    startBtn.hidden = true;
    giveUp.hidden = false;
    status(statusEl, '');
    ask();
  }
  function ask() {
    const sq = run.t.current;
    score.textContent = X.coords_score(run.t.right, it.count);
    if (find) { task.textContent = X.coords_find(sq); C.say(task.textContent); } else {
      cg.set({ highlight: { custom: new Map([[sq, 'ap-target']]) } });
      task.textContent = X.coords_name;
      nameIn.focus();
    }
    boardEl.dataset.target = find ? sq : '';
  }
  async function answer(a) {
    if (!run) return;
    run.answers.push(a);
    const ok = run.t.answer(a);
    boardEl.dataset.right = String(run.t.right);
    if (run.t.right >= it.count) { await handIn(); return; }
    status(statusEl, ok ? X.right : X.wrong, ok ? 'ok' : 'bad');
    ask();
  }
  // What is done so far handed in (all the squares, or the pupil gave up).
  async function handIn() {
    if (!run) return;
    const r = run; run = null;
    giveUp.hidden = true;
    score.textContent = X.coords_score(r.t.right, it.count);
    task.textContent = '';
    boardEl.dataset.target = '';
    await send({ answers: r.answers, time_ms: Date.now() - r.t0, hints: 0 });
    startBtn.textContent = X.again; startBtn.hidden = false;
  }
  giveUp.addEventListener('click', handIn);
}

/** A course stage: the course's own page (aprender.js), with an `api` that
 * keeps the tries of each exercise it sends; handed in when every exercise
 * is met or when the pupil presses the button. */
async function stageItem(el, me, it, statusEl, send) {
  const tries = [];
  const met = [];
  let count = 0; let sent = false; const t0 = Date.now();
  const handIn = async () => {
    if (sent) return;
    sent = true;
    const body = [];
    for (let i = 0; i < Math.max(tries.length, 1); i += 1) body.push(tries[i] || []);
    const r = await send({ tries: body, time_ms: Date.now() - t0, hints: 0 });
    if (!r) sent = false;
  };
  const api = async (method, url, body) => {
    const r = await C.api(method, url, body);
    if (method === 'GET' && url.startsWith('/api/aprender/etapas/')) count = (r.exercises || []).length;
    if (method === 'POST' && url === '/api/aprender/jugar' && body && body.stage === it.reference) {
      const n = body.exercise;
      // The exercise's tries as the course page sent them; once met they stay.
      if (!met[n]) tries[n] = body.tries.map((tr) => {
        if (tr.move) return { t: 'move', from: tr.move.slice(0, 2), to: tr.move.slice(2, 4), ...(tr.move.length > 4 ? { promotion: ({ q: 'D', r: 'T', b: 'A', n: 'C' })[tr.move[4]] } : {}) };
        if (tr.square) return { t: 'square', sq: tr.square };
        if (tr.text !== undefined) return { t: 'text', text: tr.text };
        return { t: 'choice', n: tr.choice };
      });
      if (r.verdict === 'solved') met[n] = true;
      if (count && met.filter(Boolean).length === count) setTimeout(handIn, 0);
    }
    return r;
  };
  const sendBtn = h('button', { type: 'button', id: 'tr-stage-send', onclick: handIn }, X.stage_send);
  el.append(h('p', { class: 'muted' }, X.stage_help, ' ', sendBtn), statusEl);
  const box = h('div', { id: 'tr-stage' });
  el.append(box);
  const { route } = await import('./aprender.js');
  await route(`/aprender/${it.reference}`, box, me, { ...C, api });
}

/** A game against the engine (or a position played out): started here, played
 * on /partida, handed in from the homework page once it is over. */
function gameItem(el, id, hwId, it, statusEl) {
  const key = gameKey(hwId, it.idx);
  const g = stored(key);
  const startBtn = h('button', {
    type: 'button', id: 'tr-game-start',
    onclick: async () => {
      const body = { opponent: 'engine', level: it.level };
      if (it.kind === 'position') {
        body.fen = it.fen;
        body.color = it.fen.split(' ')[1] === 'b' ? 'black' : 'white';
      } else body.color = it.goal === 'gana_negras' ? 'black' : 'white';
      try {
        const seat = await C.api('POST', '/api/games', body);
        C.keepSeat(seat);
        try { localStorage.setItem(key, seat.game); } catch { /* private mode */ }
        location.href = `/partida/${seat.game}`;
      } catch (e) { status(statusEl, e.message, 'bad'); }
    },
  }, X.game_start);
  el.append(h('p', {}, startBtn), statusEl);
  if (g) {
    status(statusEl, X.game_wait(g));
    el.append(h('p', {}, h('a', { href: `/partida/${enc(g)}`, id: 'tr-game-link' }, X.game_pick)));
  }
}

// ------------------------------------------------------------------ juego tras la tarea

function helpersOnce(helpers) {
  if (!C) C = helpers;
  if (!X) X = TEXTS[C.LANG] || TEXTS.es;
}

/** A pupil's free play while "juego tras la tarea" holds it (issue 57): a
 * notice at the top of `el` with the homework left, and the page's
 * free-play controls (#engine-form, #friend-form, #seek-form, seeks'
 * accept buttons, #play-engine) disabled. The server refuses anyway. */
export async function playLock(helpers, el) {
  helpersOnce(helpers);
  let st;
  try { st = await C.api('GET', '/api/me/juego'); } catch { return null; }
  if (!st.play_after_homework) return st;
  const hh = C.h;
  const notice = hh('section', { id: st.locked ? 'play-locked' : 'play-open', class: `card tr-play-note ${st.locked ? 'locked' : 'open'}`, role: 'status' },
    hh('h2', {}, st.locked ? X.play_locked : X.play_open),
    st.locked ? hh('p', { id: 'play-locked-why' }, C.LANG === 'en' ? st.en : st.es) : '',
    st.locked ? hh('ul', {}, st.pending.map((p) => hh('li', {}, hh('a', { href: `/clases/${enc(st.class)}/tareas/${enc(p.id)}`, class: 'button', 'data-homework': p.id }, X.play_go(p.title, p.left))))) : '');
  if (!document.getElementById('tr-play-style')) {
    document.head.append(hh('style', { id: 'tr-play-style' }, `
.tr-play-note.locked { border: 2px solid #c98a00; }
.tr-play-note.locked h2 { margin-top: 0; }
.tr-play-note ul { list-style: none; padding: 0; display: flex; flex-wrap: wrap; gap: .5rem; }
body.play-locked .accept-seek, body.play-locked #play-engine { display: none; }
`));
  }
  el.prepend(notice);
  document.body.classList.toggle('play-locked', !!st.locked);
  if (st.locked) {
    for (const f of ['#engine-form', '#friend-form', '#seek-form']) {
      const form = document.querySelector(f);
      if (form) for (const x of form.querySelectorAll('button, input, select')) x.disabled = true;
    }
  }
  return st;
}

/** The teacher's switch for "juego tras la tarea" on the class page. */
export async function playAfterCard(helpers, classId) {
  helpersOnce(helpers);
  const hh = C.h;
  const url = `/api/classes/${enc(classId)}/juego-tras-tarea`;
  const box = hh('input', { type: 'checkbox', id: 'play-after' });
  const msg = hh('p', { id: 'play-after-msg', class: 'muted', role: 'status' });
  const show = (on) => { box.checked = on; msg.textContent = on ? X.play_after_on : X.play_after_off; };
  try { show((await C.api('GET', url)).on); } catch (e) { msg.textContent = e.message; }
  box.addEventListener('change', async () => {
    try { show((await C.api('POST', url, { on: box.checked })).on); } catch (e) { msg.textContent = `${C.t.error}: ${e.message}`; box.checked = !box.checked; }
  });
  return hh('section', { class: 'card no-print', id: 'play-after-card' }, hh('h2', {}, X.play_after),
    hh('label', { class: 'tr-check' }, box, ` ${X.play_after_label}`),
    hh('p', { class: 'muted' }, X.play_after_help), msg);
}
