// The kind of an imported message: a file with kinds carries them (the payload was checked
// by kindProblems before anything was written); a file from before kinds gets them the
// way migration 24 gave them to a database: from the old texts (db/legacyMessages.ts).
import { isPlumbingKind, Plumbing, plumbingPlace } from '../../../shared/messageKinds';
import type { ConversationExportMessage } from '../../../shared/exportFormat';
import { plumbingFromLegacy } from '../db/legacyMessages';

export function importedPlumbing(message: ConversationExportMessage): Plumbing | null {
  if (message.kind === undefined) return plumbingFromLegacy(message);
  if (!isPlumbingKind(message.kind)) return null;
  return Plumbing.parse({ ...message.payload, kind: message.kind });
}

/** Why a message's kind and payload cannot be imported, one line each. */
export function kindProblems(message: ConversationExportMessage): string[] {
  const { kind } = message;
  if (kind === undefined) return [];
  if (!isPlumbingKind(kind)) {
    return message.payload ? [`message ${message.id}: a ${kind} message has no payload`] : [];
  }
  const parsed = Plumbing.safeParse({ ...message.payload, kind });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return [
      `message ${message.id}: its ${kind} payload is not valid (${issue.path.join('.') || 'payload'}: ${issue.message})`,
    ];
  }
  const { role } = plumbingPlace(parsed.data);
  return role === message.role
    ? []
    : [`message ${message.id}: a ${kind} message has role ${role}, not ${message.role}`];
}
