// Run by tests/browser_helpers.py in each page: the problems a reader meets in its column (`root`), the ids
// the page has and the links it holds.
async ([root, minScale]) => {
  const problems = [];
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
  const rgb = s => s.match(/[\d.]+/g).slice(0, 3).map(Number);
  const lum = c => { const [r, g, b] = rgb(c).map(v => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
                     return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
  for (const c of col.querySelectorAll('.chip')) {
    if (c.scrollWidth > c.clientWidth + 1) say('a clipped verdict chip', c);
    const s = getComputedStyle(c), [hi, lo] = [lum(s.color), lum(s.backgroundColor)].sort((a, b) => b - a);
    const ratio = (hi + 0.05) / (lo + 0.05);
    if (ratio < 4.5) say('a verdict chip with contrast ' + ratio.toFixed(2) + ':1 (WCAG AA: 4.5:1)', c);
  }
  const ids = [...document.querySelectorAll('[id]')].map(e => e.id).concat([...document.querySelectorAll('a[name]')].map(a => a.name));
  for (const el of document.querySelectorAll('[href], [src]')) {
    const url = el.getAttribute('href') ?? el.getAttribute('src');
    if (/^\/(?!\/)/.test(url)) say('a root-absolute link ' + url + ' (dead when the page is opened from disk)');
  }
  const links = [...document.querySelectorAll('a[href]')].map(a => a.href);
  return {problems, ids, links};
}
