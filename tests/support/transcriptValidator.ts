// Checks that a chat request (or a stored transcript turned into one) is valid for the
// API: a system prompt first, every tool call answered right after it, no orphan tool
// results, and a user message before the first assistant turn.
import type { ChatBody } from './scriptedServer';

export function transcriptProblems(messages: ChatBody['messages']): string[] {
  const problems: string[] = [];
  if (messages[0]?.role !== 'system') problems.push('the first message is not the system prompt');
  if (messages.slice(1).some((m) => m.role === 'system')) problems.push('a system message appears after the first');
  const firstNonSystem = messages.find((m) => m.role !== 'system');
  if (firstNonSystem && firstNonSystem.role !== 'user') problems.push(`the history starts with ${firstNonSystem.role}`);
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i];
    if (message.role === 'tool') {
      problems.push(`tool result ${message.tool_call_id} at ${i} does not follow its call`);
      continue;
    }
    if (message.role !== 'assistant' || !message.tool_calls?.length) continue;
    const expected = new Set(message.tool_calls.map((c) => c.id));
    let j = i + 1;
    while (j < messages.length && messages[j].role === 'tool') {
      const id = messages[j].tool_call_id ?? '';
      if (!expected.delete(id)) problems.push(`tool result ${id} at ${j} answers no call of message ${i}`);
      j++;
    }
    for (const id of expected) problems.push(`tool call ${id} of message ${i} has no result`);
    for (const call of message.tool_calls) {
      try {
        JSON.parse(call.function.arguments || '{}');
      } catch {
        problems.push(`tool call ${call.id} has arguments that are not JSON`);
      }
    }
    i = j - 1;
  }
  return problems;
}
