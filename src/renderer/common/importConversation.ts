// "Import conversation…": the desktop app picks the file in main; in a browser the page
// reads the picked file and sends its text (never a path). Stepwise exports and ChatGPT's
// conversations.json are both accepted; main tells them apart.
import type { StepwiseApi } from '../../shared/ipc';
import { call } from '../api/apiContext';
import { pickJsonFileText } from './pickFile';

export interface ImportedConversations {
  conversationId: string;
  title: string;
  count?: number;
  skipped?: Array<{ title: string; reason: string }>;
}

/** The toast after an import: one conversation by its title; a ChatGPT export by its counts and skip reasons. */
export function importSummary(imported: ImportedConversations): string {
  if (imported.count === undefined) return `Imported “${imported.title}”`;
  const count = `Imported ${imported.count} ${imported.count === 1 ? 'conversation' : 'conversations'}`;
  const skipped = imported.skipped ?? [];
  if (skipped.length === 0) return count;
  const shown = skipped.slice(0, 3).map((s) => `“${s.title}”: ${s.reason}`);
  const more = skipped.length > shown.length ? `; and ${skipped.length - shown.length} more` : '';
  return `${count} (${skipped.length} skipped: ${shown.join('; ')}${more})`;
}

export async function importConversation(api: StepwiseApi): Promise<ImportedConversations | null> {
  const first = await call(api, 'import:conversation', {});
  if (first.kind === 'imported') return first;
  if (first.kind === 'cancelled') return null;
  const content = await pickJsonFileText('Conversation export file');
  if (content === null) return null;
  const second = await call(api, 'import:conversation', { content });
  return second.kind === 'imported' ? second : null;
}
