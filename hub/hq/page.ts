/**
 * HQ's page at /hq/: stores with online state and backlog, sales by store and by day, catalog push
 * status. One small static page in the manager page's colours, talking to /hq/api; no build step,
 * no internet needed.
 */
import { Router } from 'express';

const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>POS Hub · Head office</title>
<style>
:root{--bg:#f4f5f7;--surface:#fff;--line:#e2e5ea;--text:#17202b;--muted:#5f6b7a;--accent:#0f766e;--good:#15803d;--good-soft:#e8f6ec;
--warn:#a15c07;--warn-soft:#fdf3e1;--bad:#b42318;--bad-soft:#fdecea;--side:#14202d;--radius:12px;
--font:system-ui,-apple-system,'Segoe UI',Roboto,'Noto Sans','Liberation Sans','DejaVu Sans',sans-serif}
*{box-sizing:border-box}body{margin:0;font:15px/1.5 var(--font);color:var(--text);background:var(--bg)}
header{background:var(--side);color:#fff;padding:12px 20px;display:flex;gap:16px;align-items:center}
header h1{font-size:18px;margin:0;flex:1}main{padding:20px;display:grid;gap:20px;max-width:1200px;margin:0 auto}
.card{background:var(--surface);border:1px solid var(--line);border-radius:var(--radius);padding:16px;overflow-x:auto}
.card h2{font-size:16px;margin:0 0 12px}table{border-collapse:collapse;width:100%}
th,td{text-align:left;padding:6px 10px;border-bottom:1px solid var(--line);white-space:nowrap}th{color:var(--muted);font-weight:600;font-size:13px}
td.n{text-align:right;font-variant-numeric:tabular-nums}.badge{display:inline-block;border-radius:999px;padding:1px 10px;font-size:13px;font-weight:600}
.good{background:var(--good-soft);color:var(--good)}.warn{background:var(--warn-soft);color:var(--warn)}.bad{background:var(--bad-soft);color:var(--bad)}
form{display:grid;gap:10px;max-width:320px}input,button{font:inherit;padding:10px 12px;border-radius:8px;border:1px solid var(--line);min-height:44px}
button{background:var(--accent);color:#fff;border:0;cursor:pointer}.muted{color:var(--muted)}#error{color:var(--bad)}
</style></head>
<body><header><h1>POS Hub · Head office</h1><span id="who" class="muted"></span></header>
<main>
<section class="card" id="login" hidden><h2>Log in</h2><form id="loginForm">
<input name="userName" placeholder="User name" value="admin" autocomplete="username">
<input name="password" type="password" placeholder="Password" autocomplete="current-password">
<button>Log in</button><div id="error"></div></form></section>
<section class="card" id="stores" hidden><h2>Stores</h2><table><thead><tr><th>Store</th><th>State</th><th>Last seen</th>
<th>Published</th><th>At HQ</th><th>Backlog</th><th>Catalog</th></tr></thead><tbody></tbody></table></section>
<section class="card" id="byStore" hidden><h2>Sales by store, last 7 days</h2><table><thead><tr><th>Store</th><th>Tickets</th><th>Total</th></tr></thead><tbody></tbody></table></section>
<section class="card" id="byDay" hidden><h2>Sales by day, last 7 days</h2><table><thead><tr><th>Day</th><th>Tickets</th><th>Total</th></tr></thead><tbody></tbody></table></section>
</main>
<script>
const $ = (s) => document.querySelector(s);
const esc = (v) => String(v ?? '').replace(/[&<>"]/g, (c) => ({'&':'&amp;','<':'&lt;','>':'&gt;','"':'&quot;'})[c]);
let token = sessionStorage.getItem('hqToken');
async function api(path, opts = {}) {
  const r = await fetch('/hq/api' + path, { ...opts, headers: { 'content-type': 'application/json', authorization: 'Bearer ' + token } });
  if (r.status === 401) { token = null; sessionStorage.removeItem('hqToken'); show(); throw new Error('logged out'); }
  return r.json();
}
function rows(sel, html) { $(sel + ' tbody').innerHTML = html.join('') || '<tr><td class="muted" colspan="7">Nothing yet</td></tr>'; }
async function refresh() {
  const stores = await api('/stores?$take=1000');
  rows('#stores', stores.items.map((s) => '<tr><td>' + esc(s.name || s.storeId) + ' <span class="muted">' + esc(s.storeId) + '</span></td><td>' +
    (s.online ? '<span class="badge good">online</span>' : '<span class="badge bad">offline</span>') + '</td><td>' +
    esc(s.lastSeenAt ? new Date(s.lastSeenAt).toLocaleString() : '—') + '</td><td class="n">' + s.publishedSeq + '</td><td class="n">' + s.ingestedSeq +
    '</td><td class="n">' + (s.backlog ? '<span class="badge warn">' + s.backlog + '</span>' : 0) + '</td><td>' +
    (s.appliedCatalogVersion === s.catalogVersion ? '<span class="badge good">v' + s.catalogVersion + '</span>' :
      '<span class="badge warn">' + s.appliedCatalogVersion + ' of ' + s.catalogVersion + '</span>') +
    (s.catalogError ? ' <span class="badge bad" title="' + esc(s.catalogError.detail) + '">v' + s.catalogError.version + ' refused</span>' : '') + '</td></tr>'));
  const to = new Date(); const from = new Date(to.getTime() - 7 * 86400000);
  const q = 'from=' + from.toISOString() + '&to=' + to.toISOString();
  const byStore = await api('/reports/sales?groupBy=store&' + q);
  const names = Object.fromEntries(stores.items.map((s) => [s.storeId, s.name || s.storeId]));
  rows('#byStore', byStore.rows.map((r) => '<tr><td>' + esc(names[r.storeId] ?? r.storeId) + '</td><td class="n">' + r.tickets + '</td><td class="n">' + r.total.toFixed(2) + '</td></tr>'));
  const byDay = await api('/reports/sales?groupBy=day&' + q);
  rows('#byDay', byDay.rows.map((r) => '<tr><td>' + esc(r.day) + '</td><td class="n">' + r.tickets + '</td><td class="n">' + r.total.toFixed(2) + '</td></tr>'));
}
function show() {
  $('#login').hidden = !!token;
  for (const id of ['#stores', '#byStore', '#byDay']) $(id).hidden = !token;
  if (token) refresh().catch(() => {});
}
$('#loginForm').addEventListener('submit', async (e) => {
  e.preventDefault();
  const f = new FormData(e.target);
  const r = await fetch('/hq/api/auth', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ userName: f.get('userName'), password: f.get('password') }) });
  const body = await r.json();
  if (!r.ok) { $('#error').textContent = body.detail || 'Login failed'; return; }
  token = body.tokenId; sessionStorage.setItem('hqToken', token); show();
});
setInterval(() => { if (token) refresh().catch(() => {}); }, 10000);
show();
</script></body></html>`;

export function hqPage(): Router {
  const router = Router();
  router.get('/', (_req, res) => {
    res.setHeader('Content-Security-Policy', "default-src 'self'; script-src 'unsafe-inline'; style-src 'unsafe-inline'");
    res.type('html').send(PAGE);
  });
  return router;
}
