// The phone's form of a team match (issue 59, teams): /equipos/resultado/{code}.
// One team's phone enters a board's result, the other team's confirms it;
// POST /api/equipos/codigo/{code} (docs/protocol.md, "Team tournaments").
(function () {
  'use strict';
  var main = document.getElementById('encuentro');
  if (!main) return;
  var code = main.dataset.code;
  var out = document.getElementById('error');
  function side() {
    var s = document.querySelector('input[name="side"]:checked');
    return s ? s.value : null;
  }
  document.querySelectorAll('button[data-board]').forEach(function (b) {
    b.addEventListener('click', function () {
      var board = Number(b.dataset.board);
      var sel = document.getElementById('res-' + board);
      var who = side();
      if (!who) { out.textContent = main.dataset.pickSide; return; }
      b.disabled = true;
      fetch('/api/equipos/codigo/' + code, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({
          tournament: main.dataset.tournament,
          round: Number(main.dataset.round),
          table: Number(main.dataset.table),
          board: board,
          side: who,
          result: sel.value
        })
      }).then(function (r) {
        return r.json().then(function (v) { return [r.ok, v]; });
      }).then(function (x) {
        if (!x[0]) { out.textContent = x[1].es || x[1].code; b.disabled = false; return; }
        location.reload();
      }).catch(function () { out.textContent = 'Sin conexión; inténtalo de nuevo.'; b.disabled = false; });
    });
  });
})();
