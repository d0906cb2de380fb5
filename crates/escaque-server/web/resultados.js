// Results entered by the players from a QR code (issue 59): the phone's
// form at /resultado/{code} and the arbiter's list at
// /torneos/{id}/rondas/{round}/resultados. The pages are drawn by the
// server; this script only sends what is chosen and shows the answer.
'use strict';

(function () {
  const error = document.getElementById('error');

  function showError(body, lang) {
    if (!error) return;
    const text = body && body.t === 'error' ? (lang === 'en' ? body.en : body.es) : null;
    error.textContent = text || (lang === 'en' ? 'Could not send it; try again.' : 'No se pudo enviar; inténtalo de nuevo.');
    error.dataset.code = (body && body.code) || 'network';
  }

  async function post(url, body) {
    const r = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
      credentials: 'same-origin',
    });
    let data = null;
    try { data = await r.json(); } catch (_) { data = null; }
    return { ok: r.ok, data };
  }

  // ------------------------------------------------------------ phone
  const board = document.getElementById('board');
  const form = document.getElementById('entry');
  if (board && form) {
    const lang = board.dataset.lang;
    form.addEventListener('submit', async (ev) => {
      ev.preventDefault();
      const side = form.querySelector('input[name=side]:checked');
      const result = form.querySelector('input[name=result]:checked');
      if (!side || !result) return;
      const button = document.getElementById('send');
      button.disabled = true;
      error.textContent = '';
      try {
        const r = await post('/api/resultados/' + encodeURIComponent(board.dataset.code), {
          tournament: board.dataset.tournament,
          round: Number(board.dataset.round),
          board: Number(board.dataset.board),
          side: side.value,
          result: result.value,
        });
        if (!r.ok) {
          showError(r.data, lang);
          return;
        }
        const state = document.getElementById('state');
        const tpl = document.querySelector('template[data-state-text="' + r.data.state + '"]');
        state.dataset.state = r.data.state;
        state.textContent = tpl ? tpl.innerHTML : r.data.state;
        if (r.data.result) {
          const strong = document.createElement('strong');
          strong.textContent = ' ' + r.data.result;
          state.appendChild(strong);
        }
        if (!r.data.open) form.hidden = true;
      } catch (_) {
        showError(null, lang);
      } finally {
        button.disabled = false;
      }
    });
  }

  // ------------------------------------------------------------ arbiter
  const arbiter = document.getElementById('arbiter');
  if (arbiter) {
    const lang = document.documentElement.lang;
    // A correction says what the board held ("Mesa 3 corregida: antes
    // ½-0"): kept over the reload that draws the list again.
    const key = 'resultados-corregida:' + arbiter.dataset.tournament + ':' + arbiter.dataset.round;
    const said = document.getElementById('correction');
    try {
      const text = sessionStorage.getItem(key);
      if (text && said) said.textContent = text;
      sessionStorage.removeItem(key);
    } catch (_) { /* no storage: the log below says it too */ }
    arbiter.addEventListener('click', async (ev) => {
      const button = ev.target.closest('button[data-enter]');
      if (!button) return;
      const row = button.closest('tr');
      const select = row.querySelector('select');
      button.disabled = true;
      try {
        const r = await post(
          '/api/tournaments/' + encodeURIComponent(arbiter.dataset.tournament) +
            '/resultados/' + arbiter.dataset.round + '/' + button.dataset.enter,
          { result: select.value },
        );
        if (!r.ok) {
          showError(r.data, lang);
          if (error) error.scrollIntoView({ block: 'center' });
          button.disabled = false;
          return;
        }
        if (r.data.previous && r.data.previous !== r.data.result) {
          const text = (arbiter.dataset.corrected || '')
            .replace('{board}', String(r.data.board))
            .replace('{previous}', r.data.previous);
          try { sessionStorage.setItem(key, text); } catch (_) { /* the log says it */ }
        }
        window.location.reload();
      } catch (_) {
        showError(null, lang);
        button.disabled = false;
      }
    });
  }
})();
