// Runs at most one agent loop per conversation and carries out the chat calls: send,
// stop, retry, status (edit and regenerate make versions: versions/). Other modules follow
// its events (chatEvents.ts): task lists close on `/clear`; plan review, Autopilot,
// continuity and workers react to a finished turn, in that order.
import type { ChatError, ChatStatus, Message } from '../../../shared/domain';
import { plumbingPlace, type Plumbing } from '../../../shared/messageKinds';
import type { ConversationRepo } from '../conversations/conversationRepo';
import { AppError, notFound } from '../ipc/dispatcher';
import { buildTurnRequest } from './turnRequest';
import { runAgentLoop, SHUTDOWN, type LoopActivity, type LoopDeps, type LoopOutcome } from './agentLoop';
import { createAutoTitles } from './autoTitles';
import { COMPACT_COMMAND } from '../context/compaction';
import { COMPACT_AGENT, runCompactCommand } from './compactCommand';
import { escalateRepeat, redact } from './chatErrors';
import { createDerivedError } from './derivedError';
import { createChatEvents, type TurnEndInfo } from './chatEvents';
import { DisposableStore } from '../../../shared/event';
import { CLEAR_COMMAND, chatStarts } from './chatStarts';
import { retryPoint } from './retryPoint';

export { CLEAR_COMMAND };

interface RunEntry {
  controller: AbortController;
  activity: LoopActivity;
  /** Saves the partial reply synchronously (shutdown). */
  flush: (() => void) | null;
  done: Promise<void>;
}

export interface ChatEngineDeps extends LoopDeps {
  conversations: ConversationRepo;
}

const busy = () =>
  new AppError(
    'conflict',
    'Stepwise is still replying in this conversation. Wait for the reply or stop it, then send again.',
  );

export function createChatEngine(deps: ChatEngineDeps) {
  const { db, messages, conversations, bus, options } = deps;
  const running = new Map<string, RunEntry>();
  /** The last run's error per conversation; absent means "not run since start-up". */
  const errors = new Map<string, ChatError | null>();
  /** The last failure as it came, until a run succeeds: a repeat of it is escalated. */
  const failures = new Map<string, ChatError>();
  const disposables = new DisposableStore();
  const events = disposables.add(
    createChatEvents((what, error) => options.log(`[stepwise] ${what} failed: ${describe(error, deps)}`)),
  );
  let closed = false;
  const titles = disposables.add(
    createAutoTitles({
      ...deps,
      changed: (conversationId) => conversationChanged(conversationId),
      describe: (error) => describe(error, deps),
    }),
  );
  const derivedError = createDerivedError(db, messages);

  // A conversation deleted mid-reply stops its loop.
  bus.on(
    'conversations:changed',
    (change) => {
      if (change.kind === 'deleted') running.get(change.id)?.controller.abort();
    },
    disposables,
  );

  function mustBeOpen() {
    if (closed) throw new AppError('unavailable', 'Stepwise is shutting down.');
  }

  function mustExist(conversationId: string) {
    mustBeOpen();
    const conversation = conversations.get(conversationId);
    if (!conversation) throw notFound(`Conversation ${conversationId}`);
    return conversation;
  }

  function mustBeIdle(conversationId: string) {
    mustExist(conversationId);
    if (running.has(conversationId)) throw busy();
  }

  function status(conversationId: string): ChatStatus {
    const known = errors.get(conversationId);
    return {
      conversationId,
      running: running.has(conversationId),
      error: known !== undefined ? known : derivedError(conversationId),
    };
  }

  function conversationChanged(conversationId: string) {
    const summary = conversations.summary(conversationId);
    if (summary) bus.emit('conversations:changed', { id: conversationId, kind: 'updated', conversation: summary });
  }

  function stored(message: Message) {
    bus.emit('messages:changed', { conversationId: message.conversationId, message });
  }

  function removed(conversationId: string, fromId: number) {
    if (messages.truncateFrom(conversationId, fromId) > 0) bus.emit('messages:removed', { conversationId, fromId });
  }

  /**
   * Runs a loop on the conversation's current history (refused while one runs there).
   * Resolves when it has ended and its status was pushed; never rejects.
   */
  function launch(
    conversationId: string,
    agentId: string,
    scopeId: string,
    runner = runAgentLoop,
  ): Promise<LoopOutcome> {
    mustBeIdle(conversationId);
    const controller = new AbortController();
    const entry: RunEntry = { controller, activity: 'streaming', flush: null, done: Promise.resolve() };
    running.set(conversationId, entry);
    errors.set(conversationId, null);
    bus.emit('chat:status', status(conversationId));
    const run = {
      conversationId,
      agentId,
      scopeId,
      signal: controller.signal,
      setFlush: (flush: (() => void) | null) => {
        entry.flush = flush;
      },
      onActivity: (activity: LoopActivity) => {
        entry.activity = activity;
        events.activity({ conversationId, agentId, activity });
      },
    };
    const ended = runner(deps, run)
      .catch((error: unknown): LoopOutcome => {
        // A conversation deleted mid-reply (or shutdown) makes the writes fail: not worth a log line.
        if (!closed && conversations.get(conversationId))
          options.log(`[stepwise] chat loop failed: ${describe(error, deps)}`);
        const message = `Something went wrong while replying: ${describe(error, deps)}`;
        return { kind: 'error', error: { kind: 'unknown', message, retryable: true, settings: false } };
      })
      .then((outcome) => finish(conversationId, agentId, repeated(conversationId, outcome)));
    entry.done = ended.then(() => undefined);
    return ended;
  }

  /** The conversation's own agent (`main`), or another agent id, on the current history. */
  function start(conversationId: string, agentId = 'main'): Promise<TurnEndInfo> {
    return launch(conversationId, agentId, conversationId).then((outcome) => ({
      agentId,
      outcome: outcome.kind,
      error: outcome.kind === 'error' ? outcome.error : null,
    }));
  }

  function repeated(conversationId: string, outcome: LoopOutcome): LoopOutcome {
    if (outcome.kind !== 'error') {
      if (outcome.kind === 'complete') failures.delete(conversationId);
      return outcome;
    }
    const error = escalateRepeat(failures.get(conversationId), outcome.error);
    failures.set(conversationId, outcome.error);
    return { kind: 'error', error };
  }

  function finish(conversationId: string, agentId: string, outcome: LoopOutcome): LoopOutcome {
    running.delete(conversationId);
    if (closed) return outcome;
    try {
      errors.set(conversationId, outcome.kind === 'error' ? outcome.error : null);
      if (!conversations.get(conversationId)) return outcome;
      conversations.touch(conversationId);
      if (agentId === 'main') conversationChanged(conversationId);
      bus.emit('chat:status', status(conversationId));
    } catch (error) {
      options.log(`[stepwise] finishing a chat turn failed: ${describe(error, deps)}`);
      return outcome;
    }
    const info: TurnEndInfo = {
      agentId,
      outcome: outcome.kind,
      error: outcome.kind === 'error' ? outcome.error : null,
    };
    events.turnEnded(conversationId, info);
    // Worker transcripts are child conversations: they keep the title they were given.
    if (agentId === 'main') titles.after(conversationId, outcome);
    return outcome;
  }

  function insertUser(
    conversationId: string,
    content: string,
    origin: Message['origin'],
    attachments?: string[],
    extra: { plumbing?: Plumbing; alongside?: () => void } = {},
  ): Message {
    const message = db.transaction(() => {
      extra.alongside?.();
      const inserted = messages.insert({
        conversationId,
        role: 'user',
        content,
        origin,
        attachments,
        plumbing: extra.plumbing,
      });
      conversations.touch(conversationId);
      return inserted;
    })();
    stored(message);
    conversationChanged(conversationId);
    return message;
  }

  function clear(conversationId: string): Message {
    mustBeIdle(conversationId);
    const said = events.clear(conversationId);
    const note = messages.insert({
      conversationId,
      role: 'system',
      origin: 'system',
      content: said.length ? said.join('\n') : 'Nothing to clear.',
    });
    errors.set(conversationId, null);
    stored(note);
    return note;
  }

  return {
    status,
    start,
    /**
     * Runs an agent whose transcript lives in `conversationId` while its tools and prompt
     * providers act for `scopeId` (a worker in its child conversation, for the parent).
     */
    run: (conversationId: string, agentId: string, scopeId: string = conversationId) =>
      launch(conversationId, agentId, scopeId),
    isRunning: (conversationId: string) => running.has(conversationId),
    /** What the conversation's loop is doing now: `streaming`, `tool`, or `idle`. */
    activity: (conversationId: string): LoopActivity | 'idle' => running.get(conversationId)?.activity ?? 'idle',

    /**
     * Stores the user's message and starts the loop. Refused (nothing stored) while a loop
     * runs. A message that is exactly `/clear` is a command: it runs the clear hooks and
     * stores a system note instead of asking the model. `/compact` summarizes the older
     * history now (the command is kept as a note, never sent to the model). `alongside`
     * writes what belongs with the message in its transaction (plan approval's revision).
     */
    send(
      conversationId: string,
      content: string,
      origin: Message['origin'] = 'user',
      attachments?: string[],
      alongside?: () => void,
    ): Message {
      mustBeIdle(conversationId);
      const files = attachments?.length ? attachments : undefined;
      if (!files && content.trim() === CLEAR_COMMAND) return clear(conversationId);
      if (!files && content.trim() === COMPACT_COMMAND) {
        const message = messages.insert({
          conversationId,
          role: 'system',
          origin: 'system',
          content: 'Summarizing the earlier messages (/compact)…',
        });
        stored(message);
        void launch(conversationId, COMPACT_AGENT, conversationId, runCompactCommand);
        return message;
      }
      const message = insertUser(conversationId, content, origin, files, { alongside });
      void start(conversationId);
      return message;
    },

    /**
     * Stores one of Stepwise's own messages for the model (a plan approval, Autopilot's
     * next task…: a plumbing kind sent as role `user`) and starts the loop. Refused
     * (nothing stored) while a loop runs.
     */
    post(conversationId: string, plumbing: Plumbing, content = '', alongside?: () => void): Message {
      mustBeIdle(conversationId);
      const place = plumbingPlace(plumbing);
      if (place.role !== 'user') throw new Error(`A ${plumbing.kind} message is a note, not something to send.`);
      const message = insertUser(conversationId, content, place.origin, undefined, { plumbing, alongside });
      void start(conversationId);
      return message;
    },

    ...chatStarts({
      db,
      messages,
      conversations,
      bus,
      mustBeOpen,
      mustBeIdle,
      start: (conversationId) => void start(conversationId),
      stored,
      conversationChanged,
    }),

    /** Aborts the loop; resolves once it has wound down (partial reply stored as stopped). */
    async stop(conversationId: string): Promise<ChatStatus> {
      mustExist(conversationId);
      const entry = running.get(conversationId);
      if (entry) {
        entry.controller.abort();
        await entry.done;
      }
      return status(conversationId);
    },

    /** Runs the loop again after a failure, replacing the failed reply. */
    retry(conversationId: string): ChatStatus {
      mustBeIdle(conversationId);
      const cut = retryPoint(messages.all(conversationId));
      if (cut !== undefined) removed(conversationId, cut);
      void start(conversationId);
      return status(conversationId);
    },

    /**
     * Builds the request a send in the conversation would make, and sends nothing (the idle
     * warm-up after start-up: sendWarmUp.ts). Throws what the send would (no model set up).
     */
    warmUpTurn(conversationId: string): void {
      const connection = deps.providers.forConversation(conversationId, 'main');
      buildTurnRequest(deps, connection, { conversationId, scopeId: conversationId, agentId: 'main' }).history();
    },

    /** Refused with `conflict` while a loop runs in the conversation (versions/ checks before rewriting history). */
    assertIdle: mustBeIdle,
    /** Tells the edit listeners before an edit rewrites the branch (task lists follow branches: tasks/branchLists.ts). */
    beforeEdit: events.beforeEdit,
    /** The shown branch changed: the status derives from it again (an old failure no longer applies). */
    branchChanged(conversationId: string): void {
      errors.delete(conversationId);
      bus.emit('chat:status', status(conversationId));
    },

    onBeforeEdit: events.onBeforeEdit,
    onClear: events.onClear,
    /** Finished turns, in the phase the subscriber declares (chatEvents.ts lists their order). */
    onTurnEnd: events.onTurnEnd,
    onActivity: events.onActivity,

    /** Saves every partial reply as interrupted, aborts all requests and releases every listener. */
    dispose(): void {
      if (closed) return;
      closed = true;
      for (const entry of running.values()) {
        try {
          entry.flush?.();
        } catch {
          // The database may already be gone; start-up recovery marks the row instead.
        }
        entry.controller.abort(SHUTDOWN);
      }
      disposables.dispose();
    },
  };
}

export type ChatEngine = ReturnType<typeof createChatEngine>;

function describe(error: unknown, deps: LoopDeps): string {
  const text = error instanceof Error ? error.message : String(error);
  return deps.providers.secrets().reduce((clean, key) => redact(clean, key), text);
}
