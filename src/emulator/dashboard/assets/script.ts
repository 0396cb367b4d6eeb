// The dashboard's script, served from the sandbox (CSP script-src 'self'; no framework, no inline code). Every page
// works without it; with it, a page that has `data-live` on its <main> follows the sandbox: it listens to that
// server-sent events URL (the operations stream, scoped to the session and the page's filters) and, a moment after
// a change, fetches its own URL again and swaps in the server's new `[data-swap]` region — rows that were not
// there before are marked and announced. An operation page's stream ends when the operation is terminal.
export const DASH_SCRIPT = String.raw`(function () {
  'use strict';
  var main = document.getElementById('dash-main');
  if (!main) return;
  // The filters, folded on a phone, are unfolded on a wide screen.
  var wide = document.querySelector('details[data-wide-open]');
  if (wide && window.matchMedia && window.matchMedia('(min-width: 48rem)').matches) wide.open = true;
  var live = main.getAttribute('data-live');
  var note = document.querySelector('[data-live-note]');
  var announce = document.getElementById('dash-announce');
  var TERMINAL = { completed: 1, rejected: 1, cancelled: 1 };
  var timer = null;
  var busy = false;
  var again = false;

  function ids(root) {
    var out = {};
    var rows = root.querySelectorAll('[data-row]');
    for (var i = 0; i < rows.length; i++) out[rows[i].getAttribute('data-row')] = rows[i].getAttribute('data-status');
    return out;
  }

  function refresh() {
    timer = null;
    if (busy) { again = true; return; }
    busy = true;
    fetch(location.href, { credentials: 'same-origin', headers: { accept: 'text/html' } })
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (text) {
        if (text === null) return;
        var doc = new DOMParser().parseFromString(text, 'text/html');
        var regions = document.querySelectorAll('[data-swap]');
        var before = ids(document);
        var changed = 0;
        for (var i = 0; i < regions.length; i++) {
          var id = regions[i].id;
          var next = id ? doc.getElementById(id) : null;
          if (!next || next.innerHTML === regions[i].innerHTML) continue;
          // A form being filled in is not swapped away under the user's hands.
          var active = document.activeElement;
          if (active && regions[i].contains(active) && /INPUT|SELECT|TEXTAREA/.test(active.tagName)) continue;
          regions[i].innerHTML = next.innerHTML;
          changed++;
        }
        if (!changed) return;
        var rows = document.querySelectorAll('[data-row]');
        var fresh = 0;
        for (var j = 0; j < rows.length; j++) {
          var rid = rows[j].getAttribute('data-row');
          if (!(rid in before) || before[rid] !== rows[j].getAttribute('data-status')) {
            rows[j].classList.add('fresh');
            fresh++;
          }
        }
        var title = doc.querySelector('title');
        if (title) document.title = title.textContent;
        if (announce) announce.textContent = main.getAttribute('data-updated') || '';
        main.setAttribute('data-version', String(Number(main.getAttribute('data-version') || '0') + 1));
        main.setAttribute('data-fresh', String(fresh));
      })
      .catch(function () {})
      .then(function () {
        busy = false;
        if (again) { again = false; schedule(); }
      });
  }

  function schedule() {
    if (timer === null) timer = setTimeout(refresh, 150);
  }

  if (live && typeof EventSource === 'function') {
    var source = new EventSource(live);
    source.addEventListener('open', function () {
      if (note) note.hidden = false;
      main.setAttribute('data-connected', 'true');
    });
    source.addEventListener('operation', function (e) {
      if (!main.hasAttribute('data-live-one')) return schedule();
      // One operation: its stream starts with the state the page already shows; only a change is fetched.
      var row = {};
      try { row = JSON.parse(e.data); } catch (err) {}
      var shown = document.querySelector('[data-row]');
      if (!shown || shown.getAttribute('data-status') !== row.status || shown.getAttribute('data-updated-at') !== row.updated_at) schedule();
      if (TERMINAL[row.status]) { source.close(); if (note) note.hidden = true; }
    });
  }
})();
`;
