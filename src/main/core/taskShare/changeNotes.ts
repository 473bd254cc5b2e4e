// The quiet transcript line for another agent's change: "Changed by claude-code over MCP:
// marked task 2 completed." A system message, so the model never reads it as a turn (it
// is told in the task section of its prompt instead); the renderer shows it as a divider.
// While a reply streams, lines wait for the turn's end, so they never split a tool call
// from its result.
import type { DisposableStore } from '../../../shared/event';
import type { EventBus } from '../ipc/eventBus';
import type { MessageRepo } from '../conversations/messageRepo';
import type { PlumbingOf } from '../../../shared/messageKinds';

export function createChangeNotes(deps: {
  bus: EventBus;
  messages: MessageRepo;
  isRunning: (conversationId: string) => boolean;
  /** The task-sharing module's store: the notes' subscription goes with it. */
  disposables: DisposableStore;
}) {
  const waiting = new Map<string, Array<PlumbingOf<'external_change'>>>();

  function write(conversationId: string, plumbing: PlumbingOf<'external_change'>) {
    const message = deps.messages.insert({ conversationId, role: 'system', origin: 'system', content: '', plumbing });
    deps.bus.emit('messages:changed', { conversationId, message });
  }

  deps.bus.on(
    'chat:status',
    ({ conversationId, running }) => {
      const lines = running ? undefined : waiting.get(conversationId);
      if (!lines) return;
      waiting.delete(conversationId);
      for (const line of lines) write(conversationId, line);
    },
    deps.disposables,
  );

  return {
    /** Notes what `client` did (`what`: "marked task 2 completed") in the conversation's transcript. */
    note(conversationId: string, client: string, what: string): void {
      const content: PlumbingOf<'external_change'> = { kind: 'external_change', client, what };
      if (deps.isRunning(conversationId))
        waiting.set(conversationId, [...(waiting.get(conversationId) ?? []), content]);
      else write(conversationId, content);
    },
  };
}

export type ChangeNotes = ReturnType<typeof createChangeNotes>;
