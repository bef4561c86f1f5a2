/** Follows a URL as a download through a temporary link (no new window for a popup blocker to stop). */
export function followDownload(url: string, filename: string): void {
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
}

/** Saves a Blob as a file through a temporary link; false when the browser refuses. */
export function saveBlob(blob: Blob, filename: string): boolean {
  let url: string | null = null;
  try {
    url = URL.createObjectURL(blob);
    followDownload(url, filename);
    return true;
  } catch {
    return false;
  } finally {
    // Revoked after the click has been handled: the download has its own copy by then.
    if (url !== null) {
      const created = url;
      window.setTimeout(() => URL.revokeObjectURL(created), 10_000);
    }
  }
}
