// viewer.html: the map's data starts loading with the page, beside the scripts
// (viewer-app.tsx takes it). A file, not an inline script: the page's Content-Security-Policy
// allows no inline script.
(function () {
  var match = /^\/m\/([^/]+)\/?$/.exec(location.pathname);
  if (match && window.fetch) {
    window.__mapfoldPrefetch = { id: decodeURIComponent(match[1]), answer: fetch('/api/public/maps/' + match[1], { credentials: 'same-origin' }) };
  }
})();
