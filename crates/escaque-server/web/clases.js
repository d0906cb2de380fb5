// escaque's the class pages: /clases (my classes), /clases/{id} (the teacher's class page, or the pupil's), /clase/{id}/entrar (a pupil logs in by picking a name and typing the class code). Owner: helper A.

let C; // the shared helpers from app.js

export async function route(path, el, me, helpers) {
  C = helpers;
  el.append(C.h('p', {}, path));
}
