// Puts the task ledger into the core: it watches every tool call the agent loop runs
// (main agent and workers alike, whatever the tool), links it to the task that agent has
// in progress when the call starts (bookkeeping calls belong to no task), and answers the header's "N tool calls" questions.
import type { ConversationRepo } from '../conversations/conversationRepo';
import type { Db } from '../db/openDatabase';
import { notFound } from '../ipc/dispatcher';
import type { EventBus } from '../ipc/eventBus';
import { outcomeOf, type ToolCallObserver } from '../tools/toolTypes';
import { withDeletedTask } from './deletedTask';
import { createLedgerStore } from './ledgerStore';
import { BOOKKEEPING_TOOLS } from '../../../shared/ledger';
import type { HandlersFor } from '../../../shared/contract';
import type { ledgerCalls } from '../../../shared/ledgerContract';

const BOOKKEEPING = new Set(BOOKKEEPING_TOOLS);

export interface LedgerModuleDeps {
  db: Db;
  bus: EventBus;
  conversations: Pick<ConversationRepo, 'get'>;
  now?: () => number;
}

export function createLedger(deps: LedgerModuleDeps) {
  const { bus } = deps;
  const now = deps.now ?? Date.now;
  const store = createLedgerStore(deps.db);
  /** The task of each call still running, by transcript and call id (MCP task statuses name it). */
  const running = new Map<string, { conversationId: string; listId: number; taskId: number }>();
  const runningKey = (transcriptId: string, toolCallId: string) => `${transcriptId}\n${toolCallId}`;

  const observer: ToolCallObserver = {
    started(call) {
      // The task is the one in progress as the call starts: the call that completes a
      // task belongs to it, the call that starts one does not.
      const task = BOOKKEEPING.has(call.name) ? null : store.inProgress(call.scopeId, call.agentId);
      const startedAt = now();
      // The task may be deleted while the call waits (the header, a rejected plan change):
      // the call is then linked to no task, and its result names the task it was made for.
      const gone = () => !!task && !store.taskExists(task.rowId);
      const key = runningKey(call.transcriptId, call.toolCallId);
      if (task) running.set(key, { conversationId: call.scopeId, listId: task.listId, taskId: task.seq });
      return {
        stored: (result) => (task && gone() ? withDeletedTask(result, task.seq) : result.content),
        finished(result, messageId) {
          running.delete(key);
          const linked = task && !gone() ? task : null;
          store.insert({
            conversation_id: call.scopeId,
            transcript_id: call.transcriptId,
            task_id: linked?.rowId ?? null,
            agent_id: call.agentId,
            tool_call_id: call.toolCallId,
            message_id: messageId,
            name: call.name,
            arguments: call.arguments,
            outcome: outcomeOf(result),
            started_at: startedAt,
            ended_at: now(),
            result: result.content,
          });
          if (!linked) return () => {};
          const count = store.countOfTask(linked.rowId);
          return () =>
            bus.emit('ledger:changed', {
              conversationId: call.scopeId,
              listId: linked.listId,
              taskId: linked.seq,
              count,
            });
        },
      };
    },
  };

  function mustExist(conversationId: string) {
    if (!deps.conversations.get(conversationId)) throw notFound(`Conversation ${conversationId}`);
  }

  const handlers: HandlersFor<typeof ledgerCalls> = {
    'ledger:counts': ({ conversationId }) => {
      mustExist(conversationId);
      return store.openCounts(conversationId);
    },
    'ledger:calls': ({ conversationId, taskId }) => {
      mustExist(conversationId);
      return { calls: store.openTaskCalls(conversationId, taskId) };
    },
  };

  return {
    store,
    observer,
    handlers,
    /** The task a running call belongs to (by where its step is), or null. */
    runningTask: (transcriptId: string, toolCallId: string) =>
      running.get(runningKey(transcriptId, toolCallId)) ?? null,
  };
}

export type Ledger = ReturnType<typeof createLedger>;
