// Run by tests/browser_helpers.py in each page: the problems a reader meets in its column (`root`), the ids
// the page has, the links it holds, its height and its text with each formula as its TeX source (`$...$`).
// `report`: the page is a replication report (it must have its claims index and filter); `record`: an archived
// report, a record drawn by an older layout, checked only for what does not depend on its layout.
async ([root, minScale, report, record]) => {
  const problems = [];
  if (window.MathJax && MathJax.startup && MathJax.startup.promise) await MathJax.startup.promise;
  const col = document.querySelector(root) || document.body;
  const say = (what, el) => problems.push(what + (el ? ' near "' + (el.textContent || '').trim().slice(0, 60) + '"' : ''));
  const RAW = new Set(['STYLE', 'SCRIPT', 'TEXTAREA', 'TITLE', 'XMP', 'PLAINTEXT', 'NOEMBED', 'NOFRAMES', 'IFRAME', 'NOSCRIPT']);
  const HTMLNS = 'http://www.w3.org/1999/xhtml';
  for (const el of col.querySelectorAll('*')) {
    if (el.namespaceURI !== HTMLNS) continue;
    if (RAW.has(el.tagName)) say('a raw <' + el.tagName.toLowerCase() + '> element in the content swallows the text after it:', el);
    else if (!el.tagName.includes('-') && el instanceof HTMLUnknownElement)
      say('a placeholder parsed as the unknown element <' + el.tagName.toLowerCase() + '>', el.parentElement);
  }
  const CODE = 'code, pre, kbd, samp, script, style, svg, math, .mermaid, .headerlink';
  const LEAK = /`|\{[:#.%]|\{\{\s|\s\}\}|\\[A-Za-z]{2,}|\\[()[\]]|[_^]\{|\$\$|\*\*\w[^*]*\*\*|\]\(/;
  const walker = document.createTreeWalker(col, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (n.parentElement.closest(CODE)) continue;
    const m = n.data.match(LEAK);
    if (m) say('source reached the reader as text (' + JSON.stringify(m[0]) + ') in "' + n.data.trim().slice(0, 80) + '"');
  }
  for (const d of col.querySelectorAll('.mermaid')) if (!d.querySelector('svg')) say('a Mermaid diagram shown as its source', d);
  for (const m of col.querySelectorAll('.arithmatex')) if (!m.querySelector('mjx-container')) say('a formula shown as its TeX source', m);
  const ATTRS = /^(id|class|style|title|lang|dir|role|hidden|tabindex|href|src|srcset|alt|name|type|value|checked|open|for|colspan|rowspan|align|width|height|loading|target|rel|download|start|reversed|datetime|cite|scope|span|markdown|aria-[a-z-]+|data-[a-z0-9-]+)$/;
  for (const el of col.querySelectorAll('*')) {
    if (el.namespaceURI !== HTMLNS || el.tagName.includes('-') || el.closest('svg, math')) continue;
    for (const a of el.attributes)
      if (!ATTRS.test(a.name)) say('an attribute list made <' + el.tagName.toLowerCase() + '> an attribute "' + a.name + '" (text of the page taken as markup)', el);
  }
  let level = 0;
  for (const h of col.querySelectorAll('h1, h2, h3, h4, h5, h6')) {
    const n = Number(h.tagName[1]);
    if (level && n > level + 1) say('a heading skip from h' + level + ' to h' + n, h);
    level = n;
  }
  if (report) {
    if (!col.querySelector('nav.index a[href^="#"]')) say('a report without its index of the claims to look at');
    if (document.querySelectorAll('.filter input[type=radio]').length < 2) say('a report without its verdict filter');
  }
  const imgs = [...document.images];
  for (const img of imgs) img.loading = 'eager';
  await Promise.all(imgs.map(img => img.decode().catch(() => null)));
  for (const img of imgs) {
    if (!img.complete || img.naturalWidth === 0) { say('an image that did not load: ' + img.getAttribute('src')); continue; }
    const shown = img.getBoundingClientRect().width;
    if (/\.png$/.test(img.getAttribute('src')) && img.naturalWidth > 600 && shown > 0 && shown / img.naturalWidth < minScale)
      say('figure ' + img.getAttribute('src') + ' shown at ' + Math.round(shown) + ' of ' + img.naturalWidth + ' px: labels under 9 px');
  }
  const page = document.documentElement;
  const text = [];
  const tex = new Map();
  if (window.MathJax && MathJax.startup && MathJax.startup.document)
    for (const item of MathJax.startup.document.math) tex.set(item.typesetRoot, item.math);
  const words = document.createTreeWalker(col, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT, {
    acceptNode: n => n.nodeType === 1 && tex.has(n) ? (text.push(' $' + tex.get(n) + '$ '), NodeFilter.FILTER_REJECT) : NodeFilter.FILTER_ACCEPT,
  });
  for (let n = words.nextNode(); n; n = words.nextNode()) if (n.nodeType === 3) text.push(n.data);
  const height = page.scrollHeight;
  const ids = [...document.querySelectorAll('[id]')].map(e => e.id).concat([...document.querySelectorAll('a[name]')].map(a => a.name));
  if (record) return {problems, ids, links: [...document.querySelectorAll('a[href]')].map(a => a.href), text: '', height};
  if (page.scrollWidth > page.clientWidth + 1) say('the page overflows horizontally by ' + (page.scrollWidth - page.clientWidth) + ' px');
  const h1 = document.querySelectorAll('h1').length;
  if (h1 !== 1) say(h1 + ' h1 headings (one per page)');
  const right = col.getBoundingClientRect().right;
  for (const t of col.querySelectorAll('table')) {
    let box = t.parentElement;
    while (box && box !== col && !['auto', 'scroll'].includes(getComputedStyle(box).overflowX)) box = box.parentElement;
    const scrolls = box && box !== col && ['auto', 'scroll'].includes(getComputedStyle(box).overflowX);
    const wide = t.getBoundingClientRect().width;
    if (!scrolls) {
      if (t.getBoundingClientRect().right > right + 1) say('a table ' + Math.round(wide) + ' px wide overflows its column, with no scroll box', t.rows[0]);
    } else if (box.scrollWidth > box.clientWidth + 1 && box.getBoundingClientRect().height > innerHeight) {
      say('a table ' + Math.round(wide) + ' px wide scrolls in a box ' + box.clientWidth + ' px wide and ' +
          Math.round(box.getBoundingClientRect().height) + ' px tall: its scrollbar is off screen', t.rows[0]);
    }
  }
  const fontPx = el => parseFloat(getComputedStyle(el).fontSize);
  let narrow = 0;
  for (const c of col.querySelectorAll('td, th')) {
    const w = c.getBoundingClientRect().width, chars = (c.textContent || '').trim().length;
    if (w > 0 && chars >= 8 && w < 4 * fontPx(c) && narrow++ < 3)
      say('a table cell ' + Math.round(w) + ' px wide, about ' + Math.round(w / (fontPx(c) / 2)) + ' characters a line', c);
  }
  let broken = 0;
  for (const c of col.querySelectorAll('td, th, nav a')) {
    const walk = document.createTreeWalker(c, NodeFilter.SHOW_TEXT);
    for (let n = walk.nextNode(); n && broken < 3; n = walk.nextNode())
      for (const m of n.data.matchAll(/[A-Za-z0-9]{3,}/g)) {
        const r = document.createRange();
        r.setStart(n, m.index); r.setEnd(n, m.index + m[0].length);
        const lines = new Set([...r.getClientRects()].filter(x => x.width > 0).map(x => Math.round(x.top)));
        if (lines.size > 1) { say('the word "' + m[0] + '" broken across lines', c); broken++; break; }
      }
  }
  for (const pre of col.querySelectorAll('pre')) {
    const code = pre.querySelector(':scope > code') || pre;
    if (code.scrollWidth > code.clientWidth + 1)
      say('a code block ' + code.scrollWidth + ' px wide cut off at ' + code.clientWidth + ' px (its line ends are hidden)', pre);
  }
  for (const v of col.querySelectorAll('table .chip')) {
    let box = v.parentElement;
    while (box && box !== col && !['auto', 'scroll', 'hidden'].includes(getComputedStyle(box).overflowX)) box = box.parentElement;
    if (!box || box === col || v.getClientRects().length === 0) continue;
    const r = v.getBoundingClientRect(), b = box.getBoundingClientRect();
    if (r.left < b.left - 1 || r.right > b.right + 1) {
      say('a verdict outside its scroll box\'s visible area (' + Math.round(r.left - b.left) + ' px from its left edge, the box ' + Math.round(b.width) + ' px wide)', v);
      break;
    }
  }
  const rgb = s => s.match(/[\d.]+/g).slice(0, 3).map(Number);
  const lum = c => { const [r, g, b] = rgb(c).map(v => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
                     return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
  for (const c of col.querySelectorAll('.chip')) {
    if (c.scrollWidth > c.clientWidth + 1) say('a clipped verdict chip', c);
    const s = getComputedStyle(c), [hi, lo] = [lum(s.color), lum(s.backgroundColor)].sort((a, b) => b - a);
    const ratio = (hi + 0.05) / (lo + 0.05);
    if (ratio < 4.5) say('a verdict chip with contrast ' + ratio.toFixed(2) + ':1 (WCAG AA: 4.5:1)', c);
  }
  for (const el of document.querySelectorAll('[href], [src]')) {
    const url = el.getAttribute('href') ?? el.getAttribute('src');
    if (/^\/(?!\/)/.test(url)) say('a root-absolute link ' + url + ' (dead when the page is opened from disk)');
  }
  const links = [...document.querySelectorAll('a[href]')].map(a => a.href);
  return {problems, ids, links, text: text.join(''), height};
}
