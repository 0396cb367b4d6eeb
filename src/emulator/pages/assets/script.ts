// The hosted page's script, served from the sandbox (CSP script-src 'self'; no framework, no inline code). The page
// works without it; with it: the page follows the operation live (server-sent events from <page>/events, polling
// the page every 5 s when they are unavailable) and swaps in the server's card without a reload; deadlines show in
// the payer's time zone with a countdown; copy buttons; the receipt is checked before it is sent (PDF, 10 MiB) and
// sent with progress. Kept as a string so the build ships it with the code (tsc copies no other files).
export const PAGE_SCRIPT = String.raw`(function () {
  'use strict';
  var MAX_BYTES = 10 * 1024 * 1024;
  var POLL_MS = 5000;
  var main = document.getElementById('pg-main');
  if (!main) return;
  var texts = {};
  try { texts = JSON.parse(document.getElementById('pg-text').textContent); } catch (e) { texts = {}; }
  var lang = document.documentElement.lang || 'en';
  function text(key, vars) {
    return (texts[key] || key).replace(/\{(\w+)\}/g, function (m, name) { return vars && name in vars ? vars[name] : m; });
  }

  // Sandbox time: the server's "now" at the last update, and when that was on this machine.
  var clock = { now: Number(main.dataset.now), at: Date.now(), frozen: main.dataset.frozen === 'true' };
  function sandboxNow() { return clock.frozen ? clock.now : clock.now + (Date.now() - clock.at); }
  function setClock(now) { clock.now = now; clock.at = Date.now(); tick(); }

  function pad(n) { return n < 10 ? '0' + n : String(n); }
  function left(ms) {
    var s = Math.max(0, Math.floor(ms / 1000));
    var h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60);
    return (h > 0 ? h + ':' + pad(m) : String(m)) + ':' + pad(s % 60);
  }
  function tick() {
    var items = document.querySelectorAll('[data-countdown]');
    for (var i = 0; i < items.length; i++) {
      var due = Date.parse(items[i].getAttribute('data-countdown'));
      items[i].textContent = text('label.left', { time: left(due - sandboxNow()) });
    }
  }
  function localTimes() {
    var fmt = new Intl.DateTimeFormat(lang, { dateStyle: 'long', timeStyle: 'short' });
    var items = document.querySelectorAll('time[data-local]');
    for (var i = 0; i < items.length; i++) {
      items[i].textContent = fmt.format(new Date(items[i].getAttribute('datetime')));
      var utc = items[i].parentNode.querySelector('.utc');
      if (utc) utc.hidden = true;
    }
  }
  function enhance() {
    var copies = document.querySelectorAll('button[data-copy]');
    for (var i = 0; i < copies.length; i++) copies[i].hidden = false;
    localTimes();
    tick();
  }

  // Live updates: the server sends the card of each new state; nothing is swapped while a receipt is being sent.
  var busy = false, pending = null, source = null, poller = null;
  function announce(msg) { var el = document.getElementById('pg-announce'); if (el) el.textContent = msg; }
  function swap(card) {
    if (busy) { pending = card; return; }
    if (typeof card.now === 'number') { clock.now = card.now; clock.at = Date.now(); }
    if (card.version && card.version === main.dataset.version) return tick();
    var focusId = document.activeElement && document.activeElement.id;
    var values = {};
    var inputs = main.querySelectorAll('input[type=text]');
    for (var i = 0; i < inputs.length; i++) if (inputs[i].id) values[inputs[i].id] = inputs[i].value;
    var changed = main.dataset.state !== card.state;
    main.innerHTML = card.html;
    main.dataset.state = card.state;
    main.dataset.final = String(card.final);
    main.dataset.version = card.version;
    if (card.title) document.title = card.title;
    for (var id in values) { var el = document.getElementById(id); if (el) el.value = values[id]; }
    if (focusId && document.getElementById(focusId)) document.getElementById(focusId).focus();
    enhance();
    if (changed) { var h = main.querySelector('h1'); if (h) announce(h.textContent); }
    if (card.final) stopLive();
  }
  function stopLive() {
    if (source) { source.close(); source = null; }
    if (poller) { clearInterval(poller); poller = null; }
    var live = document.querySelector('[data-live]');
    if (live) live.hidden = true;
  }
  function cardOf(doc) {
    var m = doc.getElementById('pg-main');
    if (!m) return null;
    var t = doc.querySelector('title');
    return { state: m.dataset.state, final: m.dataset.final === 'true', version: m.dataset.version, html: m.innerHTML, title: t ? t.textContent : '', now: Number(m.dataset.now) };
  }
  function poll() {
    if (busy) return;
    fetch(main.dataset.page, { headers: { accept: 'text/html' }, cache: 'no-store' })
      .then(function (r) { return r.text(); })
      .then(function (html) {
        var card = cardOf(new DOMParser().parseFromString(html, 'text/html'));
        if (card && card.version !== main.dataset.version) swap(card);
      })
      .catch(function () {});
  }
  function startPolling() { if (!poller && main.dataset.final !== 'true') poller = setInterval(poll, POLL_MS); }
  function startLive() {
    if (main.dataset.final === 'true' || !main.dataset.events) return;
    var live = document.querySelector('[data-live]');
    if (live) live.hidden = false;
    if (!window.EventSource) return startPolling();
    source = new EventSource(main.dataset.events);
    source.addEventListener('state', function (e) { swap(JSON.parse(e.data)); });
    source.addEventListener('clock', function (e) { setClock(JSON.parse(e.data).now); });
    source.onerror = function () {
      if (source && source.readyState === EventSource.CLOSED) { source = null; startPolling(); }
    };
  }

  function copy(button) {
    var value = button.getAttribute('data-copy');
    var status = main.querySelector('[data-copied]');
    function done(ok) { if (status) status.textContent = ok ? text('copy.done') : text('copy.failed'); }
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(value).then(function () { done(true); }, function () { done(false); });
      return;
    }
    var area = document.createElement('textarea');
    area.value = value;
    area.setAttribute('readonly', '');
    area.className = 'vh';
    document.body.appendChild(area);
    area.select();
    var ok = false;
    try { ok = document.execCommand('copy'); } catch (e) { ok = false; }
    document.body.removeChild(area);
    button.focus();
    done(ok);
  }

  // The receipt: checked here first (the server checks the same), then sent with progress.
  function uploadMessage(form, msg, isError) {
    var out = form.querySelector('#pg-upload-msg');
    var input = form.querySelector('input[type=file]');
    if (out) { out.textContent = msg; out.className = isError ? 'msg error' : 'msg'; }
    if (input) { if (isError) input.setAttribute('aria-invalid', 'true'); else input.removeAttribute('aria-invalid'); }
  }
  function checkFile(file) {
    if (!file) return Promise.resolve('upload.empty');
    if (file.size > MAX_BYTES) return Promise.resolve('upload.too_large');
    if (file.type !== 'application/pdf' && !/\.pdf$/i.test(file.name)) return Promise.resolve('upload.not_pdf');
    return file.slice(0, 5).text().then(function (head) { return head === '%PDF-' ? null : 'upload.not_pdf'; }, function () { return null; });
  }
  function send(form, input) {
    var bar = form.querySelector('progress');
    var button = form.querySelector('button[type=submit]');
    var xhr = new XMLHttpRequest();
    busy = true;
    button.disabled = true;
    if (bar) { bar.hidden = false; bar.value = 0; }
    function settle() { busy = false; pending = null; button.disabled = false; }
    function failed() { settle(); if (bar) bar.hidden = true; uploadMessage(form, text('upload.failed'), true); input.focus(); }
    xhr.upload.onprogress = function (e) {
      if (!e.lengthComputable) return;
      var pct = Math.round((e.loaded / e.total) * 100);
      if (bar) bar.value = pct;
      uploadMessage(form, text('upload.progress', { percent: String(pct) }), false);
    };
    xhr.upload.onload = function () { if (bar) bar.value = 100; uploadMessage(form, text('upload.checking'), false); };
    xhr.onload = function () {
      // The answer is the page after the upload (the outcome), or the page with the reason it was refused.
      var card = xhr.responseXML && cardOf(xhr.responseXML);
      if (!card || card.state === 'not_found') return failed();
      settle();
      swap(card);
      var error = main.querySelector('#pg-upload-msg.error');
      if (error) { announce(error.textContent); var again = document.getElementById('pg-receipt'); if (again) again.focus(); }
    };
    xhr.onerror = failed;
    xhr.open('POST', form.action);
    xhr.responseType = 'document';
    xhr.send(new FormData(form));
  }
  function onSubmit(e) {
    var form = e.target;
    if (!form.matches || !form.matches('form[data-upload]')) return;
    e.preventDefault();
    if (busy) return;
    var input = form.querySelector('input[type=file]');
    checkFile(input.files && input.files[0]).then(function (problem) {
      if (problem) { uploadMessage(form, text(problem), true); input.focus(); return; }
      send(form, input);
    });
  }
  function onChange(e) {
    var input = e.target;
    if (!input.matches || !input.matches('form[data-upload] input[type=file]')) return;
    var form = input.form;
    checkFile(input.files && input.files[0]).then(function (problem) { uploadMessage(form, problem ? text(problem) : '', !!problem); });
  }

  document.addEventListener('submit', onSubmit);
  document.addEventListener('change', onChange);
  document.addEventListener('click', function (e) {
    var b = e.target.closest && e.target.closest('button[data-copy]');
    if (b) copy(b);
  });
  enhance();
  setInterval(function () { if (!clock.frozen) tick(); }, 1000);
  startLive();
})();
`;
