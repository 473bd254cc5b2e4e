// The questions module on its own: what an asker gets back for each kind of reply, what
// the user may answer, and every way a question ends without an answer.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createEventBus } from '../../src/main/core/ipc/eventBus';
import { createQuestions } from '../../src/main/core/questions/questionModule';
import type { Question } from '../../src/shared/questions';

function setup() {
  const bus = createEventBus();
  const pushed: Question[][] = [];
  bus.subscribe((event, payload) => {
    if (event === 'questions:changed') pushed.push((payload as { questions: Question[] }).questions);
  });
  const questions = createQuestions({ bus, now: () => 1000 });
  const { handlers } = questions;
  return { bus, questions, handlers, pushed, conversationId: randomUUID() };
}

const approval = (conversationId: string) => ({
  conversationId,
  agentId: 'worker-2',
  agentName: 'Worker 2',
  workerId: randomUUID(),
  text: 'Worker 2 wants to run mcp__fs__write_file',
  actions: [
    { id: 'allow-once', label: 'Allow once', tone: 'primary' as const },
    { id: 'always', label: 'Always allow' },
    { id: 'deny', label: 'Deny', tone: 'danger' as const },
  ],
  details: [{ label: 'Server', value: 'fs' }],
});

describe('questions', () => {
  it('a free-text question resolves with the text and is pushed while pending', async () => {
    const { questions, handlers, pushed, conversationId } = setup();
    const answer = questions.ask({ conversationId, agentId: 'main', agentName: 'Assistant', text: 'Which region?' });
    const [pending] = handlers['questions:list']({ conversationId }) as Question[];
    expect(pending).toMatchObject({
      agentName: 'Assistant',
      text: 'Which region?',
      freeText: true,
      actions: [],
      workerId: null,
      createdAt: 1000,
    });
    expect(pushed.at(-1)).toEqual([pending]);
    expect(questions.isWaiting(conversationId, 'main')).toBe(true);

    expect(questions.answer(pending.id, { kind: 'text', text: 'eu-west-1' })).toEqual([]);
    await expect(answer).resolves.toEqual({ kind: 'text', text: 'eu-west-1' });
    expect(pushed.at(-1)).toEqual([]);
    expect(questions.isWaiting(conversationId, 'main')).toBe(false);
  });

  it('a choice question takes only one of its actions', async () => {
    const { questions, conversationId } = setup();
    const outcome = questions.ask(approval(conversationId));
    const [pending] = questions.list(conversationId);
    expect(pending.freeText).toBe(false);
    expect(pending.actions.map((a) => [a.label, a.tone])).toEqual([
      ['Allow once', 'primary'],
      ['Always allow', 'neutral'],
      ['Deny', 'danger'],
    ]);
    expect(() => questions.answer(pending.id, { kind: 'text', text: 'yes' })).toThrow(
      'Choose one of: Allow once, Always allow, Deny.',
    );
    expect(() => questions.answer(pending.id, { kind: 'action', actionId: 'maybe' })).toThrow(
      "Unknown action 'maybe'; this question's actions are 'allow-once', 'always', 'deny'.",
    );
    questions.answer(pending.id, { kind: 'action', actionId: 'deny' });
    await expect(outcome).resolves.toEqual({ kind: 'action', actionId: 'deny' });
    expect(() => questions.answer(pending.id, { kind: 'action', actionId: 'deny' })).toThrow(
      'This question was already answered or cancelled.',
    );
  });

  it('Stop cancels every question of the conversation and no other', async () => {
    const { questions, conversationId } = setup();
    const other = randomUUID();
    const first = questions.ask({ conversationId, agentId: 'worker-1', agentName: 'Worker 1', text: 'A?' });
    const second = questions.ask(approval(conversationId));
    const elsewhere = questions.ask({ conversationId: other, agentId: 'main', agentName: 'Assistant', text: 'B?' });
    expect(questions.cancelAll(conversationId)).toBe(2);
    await expect(first).resolves.toEqual({ kind: 'cancelled', reason: 'stopped' });
    await expect(second).resolves.toEqual({ kind: 'cancelled', reason: 'stopped' });
    expect(questions.list(other)).toHaveLength(1);
    questions.cancel(questions.list(other)[0].id);
    await expect(elsewhere).resolves.toEqual({ kind: 'cancelled', reason: 'stopped' });
  });

  it('an aborted agent or a deleted conversation cancels its question', async () => {
    const { bus, questions, conversationId } = setup();
    const controller = new AbortController();
    const asked = questions.ask({
      conversationId,
      agentId: 'worker-1',
      agentName: 'Worker 1',
      text: 'A?',
      signal: controller.signal,
    });
    controller.abort();
    await expect(asked).resolves.toEqual({ kind: 'cancelled', reason: 'aborted' });
    await expect(
      questions.ask({
        conversationId,
        agentId: 'main',
        agentName: 'Assistant',
        text: 'late',
        signal: controller.signal,
      }),
    ).resolves.toEqual({
      kind: 'cancelled',
      reason: 'aborted',
    });

    const orphan = questions.ask({ conversationId, agentId: 'main', agentName: 'Assistant', text: 'B?' });
    bus.emit('conversations:changed', { id: conversationId, kind: 'deleted', conversation: null });
    await expect(orphan).resolves.toEqual({ kind: 'cancelled', reason: 'deleted' });
    expect(questions.list(conversationId)).toEqual([]);
  });
});
