// Hands bytes fetched by the app to the browser as a file download.
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // After the click has started the download; revoking at once can cancel it in some browsers.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
