// The hosted page's stylesheet, served from the sandbox (CSP style-src 'self'): one card, phone first; relative
// units throughout so it reflows at 200 % zoom and at 320 CSS pixels; colours chosen for WCAG AA contrast (each
// text colour at least 4.5:1 on its background); a visible focus ring on every control.
export const PAGE_CSS = `
:root{--ink:#1d2433;--muted:#4f5968;--line:#c9ced8;--bg:#eef1f6;--card:#fff;--accent:#1a56b0;--accent-ink:#fff;
--ok:#106b34;--bad:#a8231b;--wait:#7a4f00;--review:#5f3694;--focus:#1a56b0;--notice-bg:#fff4e5;--notice-ink:#5c3b00}
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;background:var(--bg);color:var(--ink);font:1rem/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans",Arial,sans-serif}
main{padding:1rem}
.card{max-width:34rem;margin:1.5rem auto 0;background:var(--card);border:1px solid var(--line);border-radius:1rem;padding:1.5rem;overflow-wrap:anywhere}
.shop{margin:0 0 .25rem;color:var(--muted);font-size:.95rem}
h1.state{margin:0 0 .75rem;font-size:1.5rem;line-height:1.25}
.ok{color:var(--ok)}.bad{color:var(--bad)}.wait{color:var(--wait)}.review{color:var(--review)}
.amount{margin:0 0 .75rem;font-size:2rem;font-weight:700;line-height:1.2}
.lead{margin:0 0 1rem}
.mono{font-family:ui-monospace,"SFMono-Regular",Menlo,Consolas,"Liberation Mono",monospace;letter-spacing:.02em}
dl{margin:0 0 1rem}
.row{padding:.6rem 0;border-top:1px solid var(--line)}
.row:first-child{border-top:0}
dt{color:var(--muted);font-size:.9rem}
dd{margin:0;display:flex;flex-wrap:wrap;align-items:center;gap:.5rem;font-size:1.15rem}
dd .value{flex:1 1 auto;min-width:0}
.amounts .amount{font-size:1.5rem;margin:0}
.deadline{margin:0 0 1rem;color:var(--muted)}
.deadline time{color:var(--ink);font-weight:600}
.countdown{display:inline-block;font-weight:600;color:var(--wait)}
.copied{min-height:1.5rem;margin:0 0 .5rem;color:var(--ok);font-size:.95rem}
.copied:empty{min-height:0;margin:0}
button,input{font:inherit}
button{min-height:2.75rem;padding:.5rem 1rem;border-radius:.5rem;border:1px solid var(--accent);background:var(--card);color:var(--accent);cursor:pointer}
button.primary{background:var(--accent);color:var(--accent-ink)}
button.copy{min-height:2.25rem;padding:.25rem .75rem;font-size:.95rem}
button:hover{text-decoration:underline}
a{color:var(--accent)}
a:focus-visible,button:focus-visible,input:focus-visible{outline:3px solid var(--focus);outline-offset:2px}
label{display:block;font-weight:600;margin:0 0 .25rem}
.hint{margin:0 0 .5rem;color:var(--muted);font-size:.95rem}
input[type=text]{min-height:2.75rem;padding:.5rem .75rem;border:1px solid var(--muted);border-radius:.5rem;width:12rem;max-width:100%;background:#fff;color:var(--ink)}
input[type=file]{display:block;max-width:100%;margin:0 0 .5rem;padding:.5rem;border:1px dashed var(--muted);border-radius:.5rem;width:100%}
input[aria-invalid=true]{border-color:var(--bad)}
.upload,.pick-range,.pick-exact{margin:1rem 0;padding-top:1rem;border-top:1px solid var(--line)}
.msg{min-height:1.5rem;margin:0 0 .5rem}
.msg.error,.notice[role=alert]{color:var(--bad)}
.notice{margin:0 0 1rem;padding:.75rem 1rem;border-radius:.5rem;background:var(--notice-bg);color:var(--notice-ink)}
.notice[role=alert]{background:#fdecea}
progress{display:block;width:100%;height:.75rem;margin:0 0 .75rem}
progress[hidden]{display:none}
.inline{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center}
fieldset{border:0;margin:0;padding:0}
legend{font-weight:600;margin:0 0 .5rem;padding:0}
.choices{list-style:none;margin:0;padding:0;display:flex;flex-wrap:wrap;gap:.5rem}
.footer{max-width:34rem;margin:0 auto;padding:0 1rem 2rem;color:var(--muted);font-size:.9rem;overflow-wrap:anywhere}
.footer p{margin:.75rem 0}
.langs{display:flex;gap:1rem;flex-wrap:wrap}
.langs a[aria-current=true]{font-weight:700;color:var(--ink);text-decoration:none}
.vh{position:absolute;width:1px;height:1px;margin:-1px;padding:0;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap;border:0}
[hidden]{display:none!important}
@media (min-width:40rem){main{padding:2rem 1rem}.card{padding:2rem}}
@media (prefers-reduced-motion:reduce){*{transition:none!important;animation:none!important}}
`;
