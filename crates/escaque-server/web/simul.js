// escaque's the simul pages: /clases/{id}/simultanea (start a simul) and /simul/{id} (the host's grid of boards, a pupil's view). Owner: helper C.

let C; // the shared helpers from app.js

export async function route(path, el, me, helpers) {
  C = helpers;
  el.append(C.h('p', {}, path));
}
