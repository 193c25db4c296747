/** Saves bytes or text the worker produced as a file, through a temporary object URL. */
export function saveFile(content: BlobPart, fileName: string, mime: string): void {
  const url = URL.createObjectURL(new Blob([content], { type: mime }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.style.display = 'none';
  document.body.appendChild(a);
  a.click();
  a.remove();
  // Revoking at once can cancel the download in some browsers; a minute later is safe.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
