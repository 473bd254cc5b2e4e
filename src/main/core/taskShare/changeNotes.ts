// The quiet transcript line for another agent's change: "Changed by claude-code over MCP:
// marked task 2 completed." A system message, so the model never reads it as a turn (it
// is told in the task section of its prompt instead); the renderer shows it as a divider.
// While a reply streams, lines wait for the turn's end, so they never split a tool call
// from its result.
import { z } from 'zod';
import type { EventBus } from '../ipc/eventBus';
import type { MessageRepo } from '../conversations/messageRepo';
import type { PlumbingOf } from '../../../shared/messageKinds';

const Status = z.object({ conversationId: z.string(), running: z.boolean() });

export function createChangeNotes(deps: {
  bus: EventBus;
  messages: MessageRepo;
  isRunning: (conversationId: string) => boolean;
}) {
  const waiting = new Map<string, Array<PlumbingOf<'external_change'>>>();

  function write(conversationId: string, plumbing: PlumbingOf<'external_change'>) {
    const message = deps.messages.insert({ conversationId, role: 'system', origin: 'system', content: '', plumbing });
    deps.bus.emit('messages:changed', { conversationId, message });
  }

  const unsubscribe = deps.bus.subscribe((event, payload) => {
    if (event !== 'chat:status') return;
    const status = Status.safeParse(payload);
    if (!status.success || status.data.running) return;
    const lines = waiting.get(status.data.conversationId);
    if (!lines) return;
    waiting.delete(status.data.conversationId);
    for (const line of lines) write(status.data.conversationId, line);
  });

  return {
    /** Notes what `client` did (`what`: "marked task 2 completed") in the conversation's transcript. */
    note(conversationId: string, client: string, what: string): void {
      const content: PlumbingOf<'external_change'> = { kind: 'external_change', client, what };
      if (deps.isRunning(conversationId))
        waiting.set(conversationId, [...(waiting.get(conversationId) ?? []), content]);
      else write(conversationId, content);
    },
    close: unsubscribe,
  };
}

export type ChangeNotes = ReturnType<typeof createChangeNotes>;
