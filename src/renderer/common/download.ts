// Delivers an export: in the browser host the page downloads the text it was given, or
// fetches a big one in pieces from the host's HTTP route (never one WebSocket frame); the
// desktop app has already saved it through the native dialog.
import type { CallResponse } from '../../shared/ipc';
import { revealBidiControls } from '../../shared/bidi';

function saveBlob(filename: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.style.display = 'none';
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function downloadText(filename: string, mimeType: string, text: string): void {
  saveBlob(filename, new Blob([text], { type: mimeType }));
}

export function deliverExport(result: CallResponse<'export:tasks'>, toast: (text: string) => void): void {
  if (result.kind === 'download') {
    downloadText(result.filename, result.mimeType, result.text);
    toast(`Downloaded ${revealBidiControls(result.filename)}`);
  } else if (result.kind === 'saved') {
    // The path is the user's choice and may hold any character: none can reverse it here.
    toast(`Saved to ${revealBidiControls(result.path)}`);
  }
}

/** True in the browser host (no desktop preload), whose HTTP routes serve big downloads. */
export function inBrowserHost(): boolean {
  return !window.stepwise;
}

/** The name the host gave the file (`Content-Disposition`), or `fallback`. */
function filenameOf(response: Response, fallback: string): string {
  const match = /filename="([^"]+)"/.exec(response.headers.get('Content-Disposition') ?? '');
  return match ? match[1] : fallback;
}

/**
 * Fetches a browser-host route with the page's token as a bearer and saves what comes back
 * as a file, then says so. Rejects with the host's own message when it refuses.
 */
export async function downloadFromHost(
  path: string,
  query: Record<string, string>,
  toast: (text: string) => void,
): Promise<void> {
  const token = new URLSearchParams(window.location.search).get('token') ?? '';
  let response: Response;
  try {
    response = await fetch(`${path}?${new URLSearchParams(query)}`, {
      headers: { Authorization: `Bearer ${token}` },
      cache: 'no-store',
    });
  } catch {
    throw new Error('Lost the connection to Stepwise: nothing was downloaded. Try again.');
  }
  if (!response.ok) throw new Error((await response.text()) || `The download failed (HTTP ${response.status}).`);
  let blob: Blob;
  try {
    blob = await response.blob();
  } catch {
    // The host cuts the connection when an export fails half-way: half a file is never saved.
    throw new Error('The download was cut off before it was complete: nothing was saved. Try again.');
  }
  const filename = filenameOf(response, 'stepwise-export');
  saveBlob(filename, blob);
  toast(`Downloaded ${revealBidiControls(filename)}`);
}
