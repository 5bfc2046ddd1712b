/**
 * Hands a file made in the page (a Blob) to the browser as a download, under `name`: a link to
 * an object URL, clicked, and the URL released once the browser has taken it.
 */
export function saveBlob(name: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1_000);
}
