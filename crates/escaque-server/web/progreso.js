// escaque's a class's events and progress: /clases/{id}/torneo (start a class tournament) and /clases/{id}/progreso (the progress table). Owner: helper D.

let C; // the shared helpers from app.js

export async function route(path, el, me, helpers) {
  C = helpers;
  el.append(C.h('p', {}, path));
}
