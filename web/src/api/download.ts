// Starts a browser download of a same-origin GET (a data file, a report): the server's
// content-disposition names the file, or `fileName` for answers without one (JSON).
export function downloadUrl(url: string, fileName = ''): void {
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.rel = 'noopener';
  document.body.append(a);
  a.click();
  a.remove();
}
