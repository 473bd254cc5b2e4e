// Every pending question of a conversation, whichever agent asked it (the main agent or a
// worker) and whatever it is (a worker's `ask_user`, an MCP approval or elicitation). An
// asker awaits `ask(...)`; the user answers through the contract (`questions:answer`);
// Stop, an aborted agent or a deleted conversation cancel it. Nothing is stored: a
// question lives exactly as long as the agent waiting on it.
import { DisposableStore, Emitter } from '../../../shared/event';
import { randomUUID } from 'node:crypto';
import type {
  FieldValue,
  Question,
  QuestionAction,
  QuestionDetail,
  QuestionField,
  QuestionReply,
} from '../../../shared/questions';
import { formProblem } from '../../../shared/questions';
import { AppError } from '../ipc/dispatcher';
import type { EventBus } from '../ipc/eventBus';
import type { HandlersFor } from '../../../shared/contract';
import type { questionCalls } from '../../../shared/questionsContract';

export interface AskInput {
  conversationId: string;
  /** `main` or the worker's owner id (`worker-2`). */
  agentId: string;
  /** "Assistant", "Worker 2". */
  agentName: string;
  /** The asking worker's transcript id, so its view shows the question too. */
  workerId?: string | null;
  text: string;
  /** Offer an answer box (default: true when there are no actions). */
  freeText?: boolean;
  actions?: Array<Pick<QuestionAction, 'id' | 'label'> & { tone?: QuestionAction['tone'] }>;
  details?: QuestionDetail[];
  /** A form to fill in (an elicitation): answered with its values. */
  form?: QuestionField[];
  /** A page the asker wants the user to open. */
  link?: { url: string; host: string; action: string };
  /** Aborting it cancels the question (the agent was stopped). */
  signal?: AbortSignal;
  /** An approval's tool call (its card answers it). */
  toolCallId?: string;
}

export type QuestionOutcome =
  | { kind: 'text'; text: string }
  | { kind: 'action'; actionId: string }
  | { kind: 'form'; values: Record<string, FieldValue> }
  | { kind: 'cancelled'; reason: CancelReason };

/** stopped: the user pressed Stop or Esc. aborted: the asking agent ended. deleted: the conversation went away. */
export type CancelReason = 'stopped' | 'aborted' | 'deleted';

/** A conversation's pending questions after a change. */
export interface QuestionsChanged {
  conversationId: string;
  questions: Question[];
}

interface Pending {
  question: Question;
  settle: (outcome: QuestionOutcome) => void;
}

export function createQuestions(deps: { bus: EventBus; now?: () => number }) {
  const { bus } = deps;
  const now = deps.now ?? Date.now;
  const pending = new Map<string, Pending>();
  const disposables = new DisposableStore();
  const changes = disposables.add(new Emitter<QuestionsChanged>());

  function list(conversationId: string): Question[] {
    return [...pending.values()].map((p) => p.question).filter((q) => q.conversationId === conversationId);
  }

  function changed(conversationId: string): void {
    const questions = list(conversationId);
    bus.emit('questions:changed', { conversationId, questions });
    changes.fire({ conversationId, questions });
  }

  function settle(id: string, outcome: QuestionOutcome): boolean {
    const entry = pending.get(id);
    if (!entry) return false;
    pending.delete(id);
    entry.settle(outcome);
    changed(entry.question.conversationId);
    return true;
  }

  function ask(input: AskInput): Promise<QuestionOutcome> {
    const actions = (input.actions ?? []).map((a) => ({ id: a.id, label: a.label, tone: a.tone ?? 'neutral' }));
    const question: Question = {
      id: randomUUID(),
      conversationId: input.conversationId,
      agentId: input.agentId,
      agentName: input.agentName,
      workerId: input.workerId ?? null,
      text: input.text,
      freeText: input.freeText ?? actions.length === 0,
      actions,
      details: input.details ?? [],
      form: input.form ?? null,
      link: input.link ?? null,
      createdAt: now(),
      ...(input.toolCallId ? { toolCallId: input.toolCallId } : {}),
    };
    if (input.signal?.aborted) return Promise.resolve({ kind: 'cancelled', reason: 'aborted' });
    return new Promise<QuestionOutcome>((resolve) => {
      const onAbort = () => settle(question.id, { kind: 'cancelled', reason: 'aborted' });
      pending.set(question.id, {
        question,
        settle: (outcome) => {
          input.signal?.removeEventListener('abort', onAbort);
          resolve(outcome);
        },
      });
      input.signal?.addEventListener('abort', onAbort, { once: true });
      changed(question.conversationId);
    });
  }

  function answer(questionId: string, reply: QuestionReply): Question[] {
    const entry = pending.get(questionId);
    if (!entry) throw new AppError('not_found', 'This question was already answered or cancelled.');
    const { question } = entry;
    if (reply.kind === 'text' && !question.freeText) {
      throw new AppError('invalid_request', `Choose one of: ${question.actions.map((a) => a.label).join(', ')}.`);
    }
    if (reply.kind === 'form') {
      if (!question.form)
        throw new AppError('invalid_request', 'This question has no form; answer it with text or one of its actions.');
      // A form answer that does not fit is refused with the reason; the question stays open.
      const problem = formProblem(question.form, reply.values);
      if (problem) throw new AppError('invalid_request', problem);
    }
    if (reply.kind === 'action' && !question.actions.some((a) => a.id === reply.actionId)) {
      const known = question.actions.map((a) => `'${a.id}'`).join(', ') || 'none (answer with text)';
      throw new AppError(
        'invalid_request',
        `Unknown action '${reply.actionId}'; this question's actions are ${known}.`,
      );
    }
    settle(
      questionId,
      reply.kind === 'text'
        ? { kind: 'text', text: reply.text }
        : reply.kind === 'form'
          ? { kind: 'form', values: reply.values }
          : { kind: 'action', actionId: reply.actionId },
    );
    return list(question.conversationId);
  }

  /** Cancels every pending question of a conversation; returns how many there were. */
  function cancelAll(conversationId: string, reason: CancelReason = 'stopped'): number {
    const ids = list(conversationId).map((q) => q.id);
    for (const id of ids) settle(id, { kind: 'cancelled', reason });
    return ids.length;
  }

  bus.on(
    'conversations:changed',
    (change) => {
      if (change.kind === 'deleted') cancelAll(change.id, 'deleted');
    },
    disposables,
  );

  const questions = {
    ask,
    list,
    answer,
    /** Cancels one question (e.g. an approval that timed out). False if it was no longer pending. */
    cancel: (questionId: string, reason: CancelReason = 'stopped') => settle(questionId, { kind: 'cancelled', reason }),
    cancelAll,
    /** True while this agent of the conversation waits on an answer. */
    isWaiting: (conversationId: string, agentId: string) => list(conversationId).some((q) => q.agentId === agentId),
    /** Called after every change of a conversation's pending questions (workers track ⚠ with it). */
    onChange: changes.event,
  };

  const handlers: HandlersFor<typeof questionCalls> = {
    'questions:list': ({ conversationId }) => list(conversationId),
    'questions:answer': ({ questionId, reply }) => answer(questionId, reply),
  };

  return { ...questions, handlers, dispose: () => disposables.dispose() };
}

/** What other modules use: the questions without their contract handlers. */
export type Questions = Omit<ReturnType<typeof createQuestions>, 'handlers'>;
