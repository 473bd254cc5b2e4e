// Another agent's change as a quiet transcript line. No zod here: the renderer's first
// chunk uses it.
/** The transcript's quiet line for another agent's change to a task list. */
export const externalChangeNote = (client: string, what: string) => `Changed by ${client} over MCP: ${what}.`;
const NOTE = /^Changed by (.+?) over MCP: (.+)\.$/s;
/** The client and what it did, when a system message is such a line. */
export function parseExternalChangeNote(content: string): { client: string; what: string } | null {
  const match = NOTE.exec(content);
  return match ? { client: match[1], what: match[2] } : null;
}
