/**
 * The report's inline CSS and script, and the CSP that allows exactly them by hash (default-src 'none': no load
 * of any kind, so even a value that escaped escaping could neither run nor fetch).
 *
 * Big exports: a browser lays out a 100k-row table for about a minute, so the records table is cut into pages
 * of REPORT_PAGE_ROWS rows, each its own <tbody>, all but the first `hidden` (hidden rows cost parsing only).
 * The script adds the pager and sorts across all pages (keys read once per click: `data-v`, else the text;
 * numbers for amount columns, plain order for ISO times, the locale's collation for text; ties keep their
 * order). Without JavaScript, a <noscript> style shows every page at once: slow for huge exports, never partial.
 */
import { createHash } from 'node:crypto'

export const REPORT_PAGE_ROWS = 500

export const CSS = `
:root{color-scheme:light;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;font-size:14px;color:#1b1f24}
body{margin:24px}
h1{font-size:20px;margin:0 0 12px}
h2{font-size:16px;margin:24px 0 8px}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:4px 16px;margin:0}
dl.facts dt{font-weight:600}
dl.facts dd{margin:0;overflow-wrap:anywhere}
table{border-collapse:collapse;margin:0 0 8px}
th,td{border:1px solid #c9d1d9;padding:3px 8px;text-align:left;vertical-align:top}
td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}
td.n,td.d{white-space:nowrap}
thead th{background:#eef1f4;position:sticky;top:0}
tfoot td{font-weight:600;background:#f6f8fa}
th button{all:unset;cursor:pointer;display:block;width:100%}
th button:focus-visible,#pager button:focus-visible{outline:2px solid #0969da}
th[aria-sort=ascending] button::after{content:" \\25B2"}
th[aria-sort=descending] button::after{content:" \\25BC"}
#records tbody tr:nth-child(even){background:#f6f8fa}
#pager{display:flex;gap:8px;align-items:center;margin:0 0 8px}
#pager[hidden]{display:none}
#pager button{font:inherit;padding:2px 10px}
.note{color:#57606a;max-width:70em}
`

export const NOSCRIPT_CSS = '#records tbody[hidden]{display:table-row-group}'

export const SCRIPT = `
(function () {
  var table = document.getElementById('records');
  if (!table || !table.tHead) return;
  var pages = Array.prototype.slice.call(table.tBodies);
  var heads = table.tHead.rows[0].cells;
  var pager = document.getElementById('pager');
  var info = document.getElementById('page-info');
  var collator = new Intl.Collator(document.documentElement.lang, { numeric: true });
  var page = 0;
  var sorted = -1;
  var dir = 1;
  var total = 0;
  var starts = [];
  function count() {
    total = 0;
    starts = pages.map(function (tb) { var s = total; total += tb.rows.length; return s; });
  }
  count();
  // Only the two pages involved change: touching 200 <tbody> elements would restyle them all.
  function show(i) {
    var next = Math.max(0, Math.min(pages.length - 1, i));
    pages[page].hidden = true;
    pages[next].hidden = false;
    page = next;
    if (!info || !pager) return;
    info.textContent = (pager.getAttribute('data-label') || '')
      .replace('{page}', String(page + 1)).replace('{pages}', String(pages.length))
      .replace('{from}', String(starts[page] + 1)).replace('{to}', String(starts[page] + pages[page].rows.length))
      .replace('{total}', String(total));
  }
  if (pager && pages.length > 1) {
    pager.hidden = false;
    Array.prototype.forEach.call(pager.querySelectorAll('button'), function (b) {
      b.addEventListener('click', function () {
        var go = b.getAttribute('data-go');
        show(go === 'first' ? 0 : go === 'prev' ? page - 1 : go === 'next' ? page + 1 : pages.length - 1);
      });
    });
    show(0);
  }
  Array.prototype.forEach.call(heads, function (th, col) {
    var button = th.querySelector('button');
    if (!button) return;
    var type = th.getAttribute('data-type');
    button.addEventListener('click', function () {
      dir = sorted === col ? -dir : 1;
      sorted = col;
      var keyed = [];
      var sizes = pages.map(function (tb) { return tb.rows.length; });
      pages.forEach(function (tb) {
        for (var r = 0; r < tb.rows.length; r++) {
          var cell = tb.rows[r].cells[col];
          var v = cell ? cell.getAttribute('data-v') : '';
          if (v === null) v = cell.textContent;
          keyed.push({ k: type === 'num' ? (v === '' ? -Infinity : Number(v)) : v, i: keyed.length, row: tb.rows[r] });
        }
      });
      keyed.sort(function (a, b) {
        var c = type === 'text' ? collator.compare(a.k, b.k) : a.k < b.k ? -1 : a.k > b.k ? 1 : 0;
        return c !== 0 ? c * dir : a.i - b.i;
      });
      var at = 0;
      pages[page].hidden = true;
      pages.forEach(function (tb, p) {
        var fragment = document.createDocumentFragment();
        for (var n = 0; n < sizes[p]; n++) fragment.appendChild(keyed[at++].row);
        tb.appendChild(fragment);
      });
      Array.prototype.forEach.call(heads, function (h) { h.removeAttribute('aria-sort'); });
      th.setAttribute('aria-sort', dir === 1 ? 'ascending' : 'descending');
      show(0);
    });
  });
})();
`

const sha256b64 = (s: string): string => createHash('sha256').update(s, 'utf8').digest('base64')

export const REPORT_CSP =
  `default-src 'none'; style-src 'sha256-${sha256b64(CSS)}' 'sha256-${sha256b64(NOSCRIPT_CSS)}'; ` +
  `script-src 'sha256-${sha256b64(SCRIPT)}'; img-src 'none'; base-uri 'none'; form-action 'none'`
