// MathJax's settings for the site (docs/hooks/formulas.py ships MathJax itself): it typesets only the formulas that
// pymdownx.arithmatex marks (`$...$` in a page or a docstring becomes <span class="arithmatex">\(...\)</span>),
// draws them as SVG (no web fonts to fetch) and loads nothing more: no menu, so no speech or explorer modules.
window.MathJax = {
  tex: {inlineMath: [['\\(', '\\)']], displayMath: [['\\[', '\\]']], processEscapes: true, processEnvironments: true},
  options: {ignoreHtmlClass: '.*|', processHtmlClass: 'arithmatex', enableMenu: false},
  svg: {fontCache: 'global'},
};
