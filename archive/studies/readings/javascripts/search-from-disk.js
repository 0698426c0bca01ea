// The site opened from disk (file://): Material's search reads its index only from a served site (a browser lets a
// page from disk start no worker), so it hides the search box there. The header then says where search runs: the
// site served by `make serve` (README.md, "Documentation").
(() => {
  if (location.protocol !== 'file:' || !document.querySelector('.md-search')) return;  // served, or built without search
  const note = document.createElement('span');
  note.className = 'search-from-disk';
  note.textContent = 'Search: make serve';
  note.title = 'Search does not run on pages opened from disk: run make serve in the repository and open ' +
    'http://127.0.0.1:8000/';
  document.querySelector('.md-header__title').after(note);
  for (const button of document.querySelectorAll('.md-header label[for="__search"]')) button.hidden = true;  // opens nothing
})();
