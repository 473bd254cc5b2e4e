// The task-planning guidance shipped as an editable Markdown file, cut down to the parts
// for the task tool style the model is offered.
import fs from 'node:fs';
import type { TaskToolStyle } from '../../../shared/settings';
import planningMarkdown from './task-planning.md?raw';

export const PLANNING_OVERRIDE_FILE = 'task-planning.md';

/**
 * The guidance to use: a `task-planning.md` the user put in the data directory (read on
 * every request, so edits apply at once), else the one shipped with the app. An unreadable
 * or empty override falls back to the shipped text.
 */
export function planningSource(overridePath: string | null): string {
  if (!overridePath) return planningMarkdown;
  try {
    const text = fs.readFileSync(overridePath, 'utf8');
    return text.trim() ? text : planningMarkdown;
  } catch {
    return planningMarkdown;
  }
}

const MARKER = /^<!--\s*(all|full-list|granular)\s*-->\s*$/;

/** Splits the file at its marker lines; text before the first marker (the editors' note) is dropped. */
export function guidanceFor(style: TaskToolStyle, markdown: string = planningMarkdown): string {
  let current: string | null = null;
  const kept: string[] = [];
  for (const line of markdown.split(/\r?\n/)) {
    const marker = MARKER.exec(line);
    if (marker) {
      current = marker[1];
      continue;
    }
    if (current === 'all' || current === style) kept.push(line);
  }
  return kept
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
