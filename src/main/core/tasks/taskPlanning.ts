// The task-planning guidance shipped as an editable Markdown file, cut down to the parts
// for the task tool style the model is offered.
import type { TaskToolStyle } from '../../../shared/settings';
import planningMarkdown from './task-planning.md?raw';

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
  return kept.join('\n').replace(/\n{3,}/g, '\n\n').trim();
}
