// Delivers an export: in the browser host the page downloads the text it was given;
// the desktop app has already saved it through the native dialog.
import type { CallResponse } from '../../shared/ipc';
import { revealBidiControls } from '../../shared/bidi';

export function downloadText(filename: string, mimeType: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: mimeType }));
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.style.display = 'none';
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
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
