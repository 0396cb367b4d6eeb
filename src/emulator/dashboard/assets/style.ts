// The dashboard's stylesheet, served from the sandbox (CSP style-src 'self'). Phone first: the header wraps, the
// tables become one card per row below 48rem (each cell labelled from its column), relative units throughout so it
// reflows at 200 % zoom; text colours at least 4.5:1 on their backgrounds (WCAG AA); a visible focus ring; the
// state diagram's path in a colour and a heavier stroke (not colour alone).
export const DASH_CSS = `
:root{--ink:#1d2433;--muted:#4f5968;--line:#c9ced8;--bg:#eef1f6;--card:#fff;--accent:#1a56b0;--accent-ink:#fff;
--ok:#106b34;--bad:#a8231b;--wait:#7a4f00;--review:#5f3694;--focus:#1a56b0;--notice-bg:#fff4e5;--notice-ink:#5c3b00;--new:#e7f0fd}
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;background:var(--bg);color:var(--ink);font:1rem/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans",Arial,sans-serif}
a{color:var(--accent)}
:focus-visible{outline:3px solid var(--focus);outline-offset:2px}
.skip{position:absolute;left:-999rem;top:0;background:var(--card);padding:.5rem 1rem;z-index:2}
.skip:focus{left:.5rem}
.vh{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.top{background:var(--card);border-bottom:1px solid var(--line);padding:.5rem 1rem;display:flex;flex-wrap:wrap;gap:.25rem 1rem;align-items:center}
.brand{margin:0;font-weight:700;flex:1 1 auto}
.brand a{color:var(--ink);text-decoration:none}
.who{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center}
.who p{margin:0;color:var(--muted);font-size:.9rem}
.sections{flex:1 1 100%}
.sections ul{list-style:none;margin:0;padding:0;display:flex;flex-wrap:wrap;gap:.25rem}
.sections a{display:inline-block;padding:.35rem .7rem;border-radius:.5rem;text-decoration:none;color:var(--ink)}
.sections a[aria-current="page"]{background:var(--accent);color:var(--accent-ink)}
main{padding:1rem;max-width:90rem;margin:0 auto}
main:focus{outline:none}
h1{font-size:1.5rem;line-height:1.25;margin:.5rem 0 1rem}
h2{font-size:1.2rem;margin:1.5rem 0 .5rem}
.panel{background:var(--card);border:1px solid var(--line);border-radius:.75rem;padding:1rem;margin:0 0 1rem;overflow-wrap:anywhere}
.narrow{max-width:32rem;margin:2rem auto}
.mono{font-family:ui-monospace,"SFMono-Regular",Menlo,Consolas,"Liberation Mono",monospace}
.muted{color:var(--muted)}
button,input,select{font:inherit}
label{display:block;font-weight:600;margin:0 0 .25rem}
input,select{padding:.5rem .6rem;border:1px solid #767f8e;border-radius:.5rem;background:#fff;color:var(--ink);width:100%;min-width:0}
button,.button{display:inline-block;padding:.5rem 1rem;border-radius:.5rem;border:1px solid var(--accent);background:var(--accent);color:var(--accent-ink);cursor:pointer;text-decoration:none}
button.secondary,.button.secondary{background:#fff;color:var(--accent)}
button.danger{background:var(--bad);border-color:var(--bad)}
.signout button{padding:.25rem .75rem;background:#fff;color:var(--accent)}
.notice{background:var(--notice-bg);color:var(--notice-ink);border-radius:.5rem;padding:.6rem .8rem;margin:0 0 1rem}
.notice.ok{background:#e6f4ea;color:var(--ok)}
.field{margin:0 0 1rem}
details.filter-box summary{cursor:pointer}
details.filter-box summary h2{display:inline;margin:0;font-size:1.1rem}
.filter-box form{margin-top:.75rem}
.filters{display:grid;grid-template-columns:repeat(auto-fill,minmax(11rem,1fr));gap:.75rem;align-items:end}
.filters .actions{display:flex;gap:.5rem;flex-wrap:wrap}
table{border-collapse:collapse;width:100%}
th,td{text-align:left;padding:.45rem .5rem;border-bottom:1px solid var(--line);vertical-align:top}
th{font-size:.85rem;color:var(--muted);font-weight:600}
td.num,th.num{text-align:right;white-space:nowrap}
tr.fresh{background:var(--new)}
.status{font-weight:600}
.s-completed{color:var(--ok)}.s-rejected,.s-cancelled{color:var(--bad)}.s-pending,.s-awaiting_confirmation{color:var(--wait)}.s-manual_check{color:var(--review)}
.pager{display:flex;flex-wrap:wrap;gap:.75rem;align-items:center;margin:1rem 0 0}
dl.fields{display:grid;grid-template-columns:minmax(8rem,max-content) 1fr;gap:.25rem 1rem;margin:0}
dl.fields dt{color:var(--muted)}
dl.fields dd{margin:0;min-width:0}
ol.timeline{list-style:none;margin:0;padding:0}
ol.timeline li{border-left:3px solid var(--accent);padding:.25rem 0 .75rem .75rem}
.actions-list{display:flex;flex-wrap:wrap;gap:.75rem;align-items:end}
.actions-list form{display:flex;flex-wrap:wrap;gap:.5rem;align-items:end}
.actions-list input{width:9rem}
.grid2{display:grid;grid-template-columns:1fr;gap:1rem}
svg.diagram{width:100%;height:auto;max-width:56rem;display:block}
svg.diagram.tall{display:none;max-width:26rem}
.diagram .node rect{fill:#fff;stroke:#767f8e;stroke-width:1.5}
.diagram .node text{fill:var(--ink);font-size:13px}
.diagram .edge path{fill:none;stroke:#8a93a2;stroke-width:1.5}
.diagram .node.on rect{fill:#e7f0fd;stroke:var(--accent);stroke-width:3.5}
.diagram .node.now rect{stroke-dasharray:none;fill:#d3e3fb}
.diagram .edge.on path{stroke:var(--accent);stroke-width:4}
.diagram .edge text{fill:var(--muted);font-size:11px}
.footer{padding:1rem;color:var(--muted);font-size:.9rem;text-align:center}
.footer p{margin:.25rem 0}
.langs{display:flex;gap:1rem;justify-content:center;flex-wrap:wrap;margin:.5rem 0}
.langs a[aria-current]{font-weight:700;color:var(--ink)}
@media (min-width:48rem){.sections{flex:0 1 auto;order:2}.grid2{grid-template-columns:1fr 1fr}}
@media (max-width:47.99rem){
table.stack thead{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
table.stack,table.stack tbody,table.stack tr,table.stack td{display:block;width:100%}
table.stack tr{border:1px solid var(--line);border-radius:.5rem;margin:0 0 .75rem;padding:.25rem .5rem;background:var(--card);display:grid;grid-template-columns:repeat(auto-fill,minmax(9rem,1fr));gap:0 .75rem}
table.stack td:first-child{grid-column:1/-1}
table.stack td{border:0;padding:.2rem 0;text-align:left}
table.stack td::before{content:attr(data-label);display:block;font-size:.8rem;color:var(--muted)}
dl.fields{grid-template-columns:1fr}
svg.diagram.wide{display:none}
svg.diagram.tall{display:block}
}
@media (prefers-reduced-motion:no-preference){tr.fresh{transition:background 1s}}
`;
