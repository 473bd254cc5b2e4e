// Reads a `stepwise.conversations` file (a folder's export): every conversation in it must
// pass the same checks as a single conversation export, or nothing is imported.
import { CONVERSATIONS_FORMAT, CONVERSATIONS_VERSION, type ConversationExport } from '../../../shared/exportFormat';
import { ImportRefused, parseConversationData } from './conversationImport';

/** The most conversations one such file may hold. */
export const BUNDLE_MAX = 10_000;

/** The checked conversations, or null when the text is not a `stepwise.conversations` file. */
export function parseConversationsBundle(text: string): ConversationExport[] | null {
  const body = text.replace(/^\uFEFF/, '');
  // Cheap test before parsing: most imports are single conversations.
  if (!body.slice(0, 200).includes(CONVERSATIONS_FORMAT)) return null;
  let data: unknown;
  try {
    data = JSON.parse(body);
  } catch {
    return null;
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return null;
  const file = data as Record<string, unknown>;
  if (file.format !== CONVERSATIONS_FORMAT) return null;
  if (typeof file.version === 'number' && file.version > CONVERSATIONS_VERSION) {
    throw new ImportRefused(
      'newer-version',
      `These conversations were exported by a newer version of Stepwise (format version ${file.version}; this version reads up to ${CONVERSATIONS_VERSION}). Update Stepwise to import them. Nothing was imported.`,
    );
  }
  if (file.version !== CONVERSATIONS_VERSION || !Array.isArray(file.conversations)) {
    throw new ImportRefused(
      'malformed',
      `This Stepwise folder export is malformed: it needs "version": ${CONVERSATIONS_VERSION} and a "conversations" list. Nothing was imported.`,
    );
  }
  if (file.conversations.length === 0)
    throw new ImportRefused('malformed', 'This Stepwise folder export holds no conversations. Nothing was imported.');
  if (file.conversations.length > BUNDLE_MAX) {
    throw new ImportRefused(
      'over-limit',
      `This folder export holds ${file.conversations.length} conversations (at most ${BUNDLE_MAX}). Nothing was imported.`,
    );
  }
  return file.conversations.map((item, index) => {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) {
      throw new ImportRefused(
        'malformed',
        `conversations.${index} is not a conversation export. Nothing was imported.`,
      );
    }
    try {
      return parseConversationData(item);
    } catch (error) {
      if (error instanceof ImportRefused)
        throw new ImportRefused(error.reason, `conversations.${index}: ${error.message}`);
      throw error;
    }
  });
}
