// Bidirectional-override and isolate characters (U+202A–U+202E, U+2066–U+2069) reorder the
// text around them, so "fdp.exe" preceded by U+202E displays as "exe.pdf". Wherever a title,
// task title or file name is shown or exported, each one is replaced by a visible marker
// naming it; in JSON it is written as an escape, which reads back as the same text.

const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/g;

const hex = (char: string) => char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');

export function hasBidiControls(text: string): boolean {
  return /[\u202A-\u202E\u2066-\u2069]/.test(text);
}

/** For display: each control becomes a visible marker, e.g. "[U+202E]". */
export function revealBidiControls(text: string): string {
  return text.replace(BIDI_CONTROLS, (char) => `[U+${hex(char)}]`);
}

/** For JSON text: each control becomes its `\uXXXX` escape (lossless: JSON.parse restores it). */
export function escapeBidiControlsInJson(json: string): string {
  return json.replace(BIDI_CONTROLS, (char) => `\\u${hex(char).toLowerCase()}`);
}
