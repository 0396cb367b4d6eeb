// The pages' additions to the dashboard's stylesheet and script (served with the frame's, assets.ts): the charts'
// lines, bars, bands and marks (each line with its own dash pattern, not colour alone), the small inline forms, and
// the Requests page's live rows — an EventSource on the table's `data-requests-live` URL adding each request on
// top as text (never as HTML), keeping at most `data-max` rows.
export const PAGES_CSS = `
.inline-form{display:flex;flex-wrap:wrap;gap:.75rem;align-items:end;margin:0 0 1rem}
.inline-form > div{flex:1 1 10rem;max-width:20rem}
.hint{margin:.25rem 0 0;font-size:.85rem}
.chart-box{margin:1rem 0}
svg.chart{width:100%;height:auto;max-width:56rem;display:block;background:#fff}
.chart .grid{stroke:#d5d9e0;stroke-width:1}
.chart .tick{fill:var(--muted);font-size:11px}
.chart .line,.legend .line{fill:none;stroke-width:2.5}
.line.balance{stroke:#1a56b0}
.line.reserved{stroke:#7a4f00;stroke-dasharray:6 3}
.line.minus{stroke:#a8231b;stroke-dasharray:2 3}
.chart .pt{fill:#1a56b0}
.mark{stroke-width:1.5}
.mark.payout_reserved{stroke:#5f3694;stroke-dasharray:4 4}
.mark.payout_settled{stroke:#106b34}
.chart .bar,.legend .bar-key{fill:#1a56b0;stroke:#1a56b0}
.chart .band{fill:#e6f4ea;stroke:#106b34;stroke-width:1}
.legend .band-key{stroke:#106b34;stroke-width:6;opacity:.5}
.legend .bar-key{stroke-width:6}
.legend{list-style:none;display:flex;flex-wrap:wrap;gap:.25rem 1rem;margin:.5rem 0;padding:0;font-size:.9rem}
.legend li{display:flex;align-items:center;gap:.35rem}
svg.swatch{width:1.5rem;height:.5rem}
code.secret{overflow-wrap:anywhere}
table.requests td,table.deliveries td,table.workspaces td,table.violations td:nth-child(5){overflow-wrap:anywhere}
.tl-violation strong{color:#a8231b}
.tl-violation span{overflow-wrap:anywhere}
table.deliveries .status,table.deliveries button{white-space:nowrap;overflow-wrap:normal}
`;

export const PAGES_SCRIPT = String.raw`(function () {
  'use strict';
  var table = document.querySelector('[data-requests-live]');
  if (!table || typeof EventSource !== 'function') return;
  var body = table.querySelector('tbody');
  var labels = [];
  var heads = table.querySelectorAll('thead th');
  for (var i = 0; i < heads.length; i++) labels.push(heads[i].textContent);
  var max = Number(table.getAttribute('data-max')) || 300;
  var source = new EventSource(table.getAttribute('data-requests-live'));
  var note = document.querySelector('[data-live-note]');
  source.addEventListener('open', function () {
    if (note) note.hidden = false;
    table.setAttribute('data-connected', 'true');
  });
  source.addEventListener('request', function (e) {
    var r;
    try { r = JSON.parse(e.data); } catch (err) { return; }
    if (body.querySelector('[data-request="' + String(r.id).replace(/"/g, '') + '"]')) return;
    var cells = [r.at, r.method, r.path, String(r.status), r.latency_ms + ' ms', r.shop_id || '—', r.error_code || '—'];
    var tr = document.createElement('tr');
    tr.setAttribute('data-request', r.id);
    tr.className = 'fresh';
    for (var j = 0; j < cells.length; j++) {
      var td = document.createElement('td');
      td.setAttribute('data-label', labels[j] || '');
      if (j === 0 || j === 2) {
        var span = document.createElement('span');
        span.className = 'mono';
        span.textContent = cells[j];
        td.appendChild(span);
      } else td.textContent = cells[j];
      tr.appendChild(td);
    }
    body.insertBefore(tr, body.firstChild);
    while (body.children.length > max) body.removeChild(body.lastChild);
    var empty = document.querySelector('[data-empty]');
    if (empty) empty.hidden = true;
    table.setAttribute('data-count', String(body.children.length));
  });
})();
`;
