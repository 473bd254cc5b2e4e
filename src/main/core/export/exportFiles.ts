// File names and types for exports: readable, safe on every file system, dated.

export type ExportFormat = 'md' | 'json' | 'csv';

export const MIME_TYPES: Record<ExportFormat, string> = {
  md: 'text/markdown',
  json: 'application/json',
  csv: 'text/csv',
};

export const FORMAT_NAMES: Record<ExportFormat, string> = {
  md: 'Markdown',
  json: 'JSON',
  csv: 'CSV',
};

/** For native save/open dialogs. */
export interface FileFilter {
  name: string;
  extensions: string[];
}

export function filterFor(format: ExportFormat): FileFilter {
  return { name: FORMAT_NAMES[format], extensions: [format] };
}

/**
 * A title as a file-name part: letters and digits of any script kept, everything else
 * (path separators, reserved characters, spaces) collapsed to single hyphens.
 */
export function slug(title: string, max = 48): string {
  const words = title
    .normalize('NFC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '');
  const cut = Array.from(words).slice(0, max).join('').replace(/-+$/, '');
  return cut || 'untitled';
}

export function dateStamp(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

export function exportFilename(parts: string[], exportedAt: number, format: ExportFormat): string {
  return `${['stepwise', ...parts, dateStamp(exportedAt)].join('-')}.${format}`;
}
