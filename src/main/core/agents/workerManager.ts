// Workers: sub-agents the main agent starts with `start_task`. Each runs the same agent
// loop on its own transcript (a child conversation), with its own owner id on the
// parent's task list. Results go back to the main agent as messages, and the main agent
// resumes when it is idle. Stop halts everything and leaves one summary message.
import { workerResultHeader, type Worker } from '../../../shared/agents';
import type { ChatError, Message } from '../../../shared/domain';
import type { PlumbingOf } from '../../../shared/messageKinds';
import { ANSWER_PREFIX, CANCELLED_ANSWER } from '../../../shared/questions';
import type { ConversationRepo } from '../conversations/conversationRepo';
import type { MessageRepo } from '../conversations/messageRepo';
import type { EventBus } from '../ipc/eventBus';
import type { DisposableStore } from '../../../shared/event';
import { notFound } from '../ipc/dispatcher';
import type { ChatEngine } from '../llm/chatEngine';
import type { Questions } from '../questions/questionModule';
import type { TaskService } from '../tasks/taskService';
import { stopNote, workerLabel, type AgentSnapshot, type TaskCounts } from './stopSummary';
import { createWorkerQueue, type WorkerQueue } from './workerQueue';
import { completedMessage, handedBackNote, workerEndOp, type WorkerEnd, type WorkerEndOutcome } from './workerTasks';
import type { StoredWorker, WorkerRepo } from './workerRepo';

export interface WorkerRuntime {
  activity: 'streaming' | 'tool' | 'waiting' | 'idle';
}

export interface WorkerManagerDeps {
  bus: EventBus;
  messages: MessageRepo;
  conversations: ConversationRepo;
  repo: WorkerRepo;
  tasks: TaskService;
  chat: ChatEngine;
  questions: Questions;
  concurrency: () => number;
  now?: () => number;
  log?: (line: string) => void;
  /** The workers module's store: the manager's subscriptions go with it. */
  disposables: DisposableStore;
}

export const BEGIN_MESSAGE = 'Begin your task.';

/** What a failed worker reports to the main agent; the main agent decides what to do. */
export function errorReport(worker: StoredWorker['worker'], error: ChatError) {
  const suggestions: Partial<Record<ChatError['kind'], string>> = {
    auth: 'The API key was rejected; ask the user to check Settings before retrying.',
    model: 'The model is not available; ask the user which model to use.',
    rate: 'The provider is rate-limiting; retry later or start fewer workers at once.',
    timeout: 'The request timed out; retry with a narrower task.',
    rounds: 'The worker used every tool round; split the task into smaller ones.',
  };
  return {
    task_id: worker.owner,
    status: 'error' as const,
    error_type: error.kind,
    message: error.message,
    context: `Worker ${worker.number} was working on: ${worker.description}`,
    suggestion: suggestions[error.kind] ?? 'Retry with a refined task description, change the task, or ask the user.',
  };
}

/** A worker's result for the main agent: the text it reads, and the transcript's one line. */
interface Result {
  text: string;
  plumbing: PlumbingOf<'worker_result'>;
}

function resultPayload(
  worker: StoredWorker['worker'],
  taskId: number | null,
  verb: 'finished' | 'failed',
  parts: string[],
): PlumbingOf<'worker_result'> {
  return {
    kind: 'worker_result',
    worker: worker.number,
    taskId,
    verb,
    body: parts.filter(Boolean).join('\n\n').trim(),
  };
}

export function createWorkerManager(deps: WorkerManagerDeps) {
  const { bus, messages, repo, tasks, chat, questions } = deps;
  const now = deps.now ?? Date.now;
  const log = deps.log ?? ((line: string) => console.warn(line));
  const queues = new Map<string, WorkerQueue>();
  const runtime = new Map<string, WorkerRuntime>();
  /** Results waiting for the main agent to be idle, per parent conversation. */
  const pending = new Map<string, Result[]>();
  /** Parents whose workers were stopped: late results are stored but do not resume the loop. */
  const halted = new Set<string>();

  // Workers a previous process left running cannot resume: their tasks come back to the main agent.
  for (const left of repo.abandonUnfinished()) {
    tasks.change(
      left.conversationId,
      { actor: left.owner, owner: left.owner, claims: false },
      workerEndOp(left.owner, null, 'stopped'),
    );
  }

  function queueFor(conversationId: string): WorkerQueue {
    let queue = queues.get(conversationId);
    if (!queue) {
      queue = createWorkerQueue(deps.concurrency);
      queues.set(conversationId, queue);
    }
    return queue;
  }

  function view(stored: StoredWorker): Worker {
    const live = runtime.get(stored.worker.id);
    return {
      ...stored.worker,
      activity: stored.worker.status === 'running' ? (live?.activity ?? 'idle') : null,
      needsInput: !!live && questions.isWaiting(stored.worker.conversationId, stored.worker.owner),
    };
  }

  function list(conversationId: string): Worker[] {
    return repo.list(conversationId).map(view);
  }

  function changed(conversationId: string): void {
    bus.emit('workers:changed', { conversationId, workers: list(conversationId) });
  }

  function lastAnswer(workerId: string): string {
    const reply = messages.all(workerId).findLast((m: Message) => m.role === 'assistant' && m.content.trim());
    return reply?.content ?? '(The worker finished without an answer.)';
  }

  function resultHeader(worker: StoredWorker['worker'], verb: 'finished' | 'failed'): string {
    return workerResultHeader(worker.number, worker.taskId, verb);
  }

  async function run(stored: StoredWorker): Promise<void> {
    const { worker } = stored;
    repo.setStatus(worker.id, 'running');
    runtime.set(worker.id, { activity: 'idle' });
    changed(worker.conversationId);
    let outcome;
    try {
      outcome = await chat.run(worker.id, worker.owner, worker.conversationId);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      outcome = {
        kind: 'error' as const,
        error: { kind: 'unknown' as const, message, retryable: true, settings: false },
      };
    }
    runtime.delete(worker.id);
    if (!deps.conversations.get(worker.conversationId)) return;
    if (outcome.kind === 'complete') {
      const answer = lastAnswer(worker.id);
      const ended = end(worker, 'done', answer);
      const text =
        ended.completed !== null
          ? completedMessage(worker, ended.completed, answer)
          : `${resultHeader(worker, 'finished')}\n\n${answer}`;
      const note = handedBackNote(ended.handedBack);
      deliver(worker.conversationId, {
        text: [text, note].filter(Boolean).join('\n\n'),
        plumbing: resultPayload(worker, ended.completed ?? worker.taskId, 'finished', [answer, note]),
      });
    } else if (outcome.kind === 'error') {
      const report = errorReport(worker, outcome.error);
      const ended = end(worker, 'error', JSON.stringify(report));
      const json = `\`\`\`json\n${JSON.stringify(report, null, 2)}\n\`\`\``;
      const note = handedBackNote(ended.handedBack);
      deliver(worker.conversationId, {
        text: [`${resultHeader(worker, 'failed')}\n\n${json}`, note].filter(Boolean).join('\n\n'),
        plumbing: resultPayload(worker, worker.taskId, 'failed', [json, note]),
      });
    } else {
      end(worker, 'stopped', null);
    }
    changed(worker.conversationId);
  }

  /**
   * Stores how the worker ended and what that does to its tasks in one transaction: a
   * result completes its task; a task left in progress is handed back, marked with why.
   */
  function end(worker: StoredWorker['worker'], ended: WorkerEnd, result: string | null): WorkerEndOutcome {
    const status = ended === 'done' ? 'done' : ended === 'error' ? 'error' : 'stopped';
    const who = { actor: worker.owner, owner: worker.owner, claims: false };
    const changedTasks = tasks.change(worker.conversationId, who, workerEndOp(worker.owner, worker.taskId, ended), {
      alongside: () => repo.setStatus(worker.id, status, result),
    });
    if (changedTasks.ok) return changedTasks.value.value;
    log(`[stepwise] could not update worker ${worker.number}'s tasks: ${changedTasks.error}`);
    repo.setStatus(worker.id, status, result);
    return { completed: null, handedBack: [] };
  }

  function insertResult(conversationId: string, result: Result): Message {
    return messages.insert({
      conversationId,
      role: 'user',
      content: result.text,
      origin: 'worker',
      plumbing: result.plumbing,
    });
  }

  function deliver(conversationId: string, result: Result): void {
    pending.set(conversationId, [...(pending.get(conversationId) ?? []), result]);
    flush(conversationId);
  }

  /** Hands waiting results to the main agent once its loop is idle, then resumes it. */
  function flush(conversationId: string): void {
    const waiting = pending.get(conversationId);
    if (!waiting?.length || chat.isRunning(conversationId)) return;
    pending.delete(conversationId);
    for (const result of waiting) {
      const message = insertResult(conversationId, result);
      bus.emit('messages:changed', { conversationId, message });
    }
    if (halted.has(conversationId)) return;
    try {
      chat.start(conversationId);
    } catch (error) {
      log(`[stepwise] could not resume the main agent: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  chat.onTurnEnd(
    'workers',
    (conversationId, info) => {
      if (info.agentId === 'main') flush(conversationId);
    },
    deps.disposables,
  );

  // A new message from the user lifts a stop: results may resume the agent again.
  bus.on(
    'messages:changed',
    ({ conversationId, message }) => {
      if (message.role === 'user' && message.origin === 'user') halted.delete(conversationId);
    },
    deps.disposables,
  );

  return {
    list,
    /** Pushes the workers' current view (e.g. after a question changed their ⚠). */
    refresh: changed,

    /** The `start_task` tool's work: returns at once with started or queued. */
    start(
      conversationId: string,
      input: { description: string; expectedOutput: string; taskId: number | null },
    ): { task_id: string; worker: number; status: 'started' | 'queued' } {
      if (!deps.conversations.get(conversationId)) throw notFound(`Conversation ${conversationId}`);
      halted.delete(conversationId);
      const stored = repo.create({
        conversationId,
        description: input.description,
        expectedOutput: input.expectedOutput,
        taskSeq: input.taskId,
      });
      messages.insert({ conversationId: stored.worker.id, role: 'user', content: BEGIN_MESSAGE, origin: 'system' });
      const status = queueFor(conversationId).submit(stored.worker.id, () => run(stored));
      changed(conversationId);
      return { task_id: stored.worker.owner, worker: stored.worker.number, status: status };
    },

    /** The worker with this owner id in a conversation (for its prompt and its task tools). */
    byOwner(conversationId: string, owner: string): StoredWorker | undefined {
      return repo.list(conversationId).find((w) => w.worker.owner === owner);
    },

    setActivity(workerId: string, activity: WorkerRuntime['activity']): void {
      const live = runtime.get(workerId);
      if (!live || live.activity === activity) return;
      live.activity = activity;
      const stored = repo.get(workerId);
      if (stored) changed(stored.worker.conversationId);
    },

    /**
     * The `ask_user` tool: the question goes to the user (a banner in the conversation and
     * in the worker's view) and its answer becomes the tool result. It is the tool result
     * rather than a user message, which would land between the call and its result.
     */
    async ask(conversationId: string, owner: string, question: string, signal: AbortSignal): Promise<string> {
      const stored = this.byOwner(conversationId, owner);
      const live = stored && runtime.get(stored.worker.id);
      if (!stored || !live) return 'No user is available to answer; continue with your best judgement.';
      live.activity = 'waiting';
      const outcome = await questions.ask({
        conversationId,
        agentId: owner,
        agentName: `Worker ${stored.worker.number}`,
        workerId: stored.worker.id,
        text: question,
        signal,
      });
      live.activity = 'tool';
      changed(conversationId);
      return outcome.kind === 'text' ? `${ANSWER_PREFIX}${outcome.text}` : CANCELLED_ANSWER;
    },

    /** True while any worker of the conversation runs or waits. */
    active(conversationId: string): boolean {
      return repo.list(conversationId).some((w) => w.worker.status === 'running' || w.worker.status === 'queued');
    },

    /**
     * Stop all: aborts the main agent and every worker, drops the queue, and — when
     * workers were involved — adds one summary message the model can continue from.
     */
    async stopAll(conversationId: string): Promise<void> {
      const workers = list(conversationId);
      const involved = workers.some((w) => w.status === 'running' || w.status === 'queued');
      const snapshots: AgentSnapshot[] = [{ label: 'Main agent', activity: chat.activity(conversationId) }];
      for (const w of workers) {
        if (w.status === 'queued') snapshots.push({ label: workerLabel(w.number, w.description), activity: 'queued' });
        else if (w.status === 'running') {
          snapshots.push({
            label: workerLabel(w.number, w.description),
            activity: w.needsInput ? 'waiting' : (w.activity ?? 'idle'),
          });
        }
      }
      // The list as it stood when the user stopped (stopped workers hand their tasks back).
      const open = tasks.get(conversationId);
      const counts: TaskCounts | null = open
        ? {
            pending: open.tasks.filter((t) => t.status === 'pending').length,
            inProgress: open.tasks.filter((t) => t.status === 'in_progress').length,
            completed: open.tasks.filter((t) => t.status === 'completed').length,
            cancelled: open.tasks.filter((t) => t.status === 'cancelled').length,
          }
        : null;
      halted.add(conversationId);
      const queue = queues.get(conversationId);
      for (const id of queue?.dropQueued() ?? []) repo.setStatus(id, 'stopped');
      await Promise.all([
        chat.stop(conversationId),
        ...workers.filter((w) => w.status === 'running').map((w) => chat.stop(w.id)),
      ]);
      await queue?.idle();
      // Results that arrived just before the stop still belong in the history.
      const late = pending.get(conversationId) ?? [];
      pending.delete(conversationId);
      for (const result of late) {
        bus.emit('messages:changed', { conversationId, message: insertResult(conversationId, result) });
      }
      if (involved) {
        const plumbing = stopNote(new Date(now()), snapshots, counts);
        const message = messages.insert({ conversationId, role: 'user', content: '', origin: 'system', plumbing });
        bus.emit('messages:changed', { conversationId, message });
      }
      changed(conversationId);
    },
  };
}

export type WorkerManager = ReturnType<typeof createWorkerManager>;
