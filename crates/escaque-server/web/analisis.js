// The analysis pages (issue 27): /analisis (paste or upload a PGN, the
// analysis board) and /analisis/{id} (an analysed game: the graph, the marks,
// each side's accuracy, "Aprende de tus errores"). Loaded only there.

export async function route(path, main, me, k) {
  const { h, t } = k;
  main.append(h('h1', {}, t.an.title));
}
