// viewer.html: the map's data starts loading with the page, beside the scripts
// (viewer-app.tsx takes it). A file, not an inline script: the page's Content-Security-Policy
// allows no inline script.
(function () {
  var match = /^\/m\/([^/]+)\/?$/.exec(location.pathname);
  if (match && window.fetch) {
    // A view link ("anyone with the link can view") carries its key: passed on as it came.
    var key = window.URLSearchParams ? new URLSearchParams(location.search).get('key') : null;
    var query = key ? '?key=' + encodeURIComponent(key) : '';
    window.__mapfoldPrefetch = { id: decodeURIComponent(match[1]), answer: fetch('/api/public/maps/' + match[1] + query, { credentials: 'same-origin' }) };
  }
})();
