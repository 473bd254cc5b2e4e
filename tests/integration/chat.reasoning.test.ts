// Reasoning models (issue 12, section 1, points 3–5): `reasoning_content`, `reasoning` and
// `<think>` become the message's reasoning with a duration, never part of the answer; the
// reasoning goes back as `reasoning_content` within the tool-calling turn only.
import { describe, expect, it } from 'vitest';
import { type ScriptedServer } from '../support/scriptedServer';
import { chatCorePerTest, type ChatHarness } from '../support/chatHarness';
import * as shapes from '../support/sseFixtures';
import { NO_ANSWER_NOTE } from '../../src/main/core/llm/turnOutcome';

let server: ScriptedServer;
let h: ChatHarness;
chatCorePerTest((s, c) => {
  server = s;
  h = c;
});

describe('reasoning', () => {
  it('reasoning_content is kept with the message, timed, and sent back only within its tool-calling turn', async () => {
    server.push(
      shapes.reasoningContentThenCall,
      shapes.reasoningContentThenAnswer('The plan is written. ', 'Your plan is ready.'),
      shapes.reasoningContentThenAnswer('A new question. ', 'Sure.'),
    );
    const conversation = await h.newConversation('DeepSeek');
    const first = await h.sendAndWait(conversation.id, 'Plan my trip');
    expect(first.status.error).toBeNull();
    const [, call, , answer] = h.messages(conversation.id);
    expect(call.reasoning).toMatchObject({ text: 'The user wants a plan. Three steps will do.' });
    // The fixture pauses 30 ms between the two pieces of thinking.
    expect(call.reasoning!.durationMs).toBeGreaterThanOrEqual(25);
    expect(call.content).toBe('');
    expect(answer).toMatchObject({ content: 'Your plan is ready.', reasoning: { text: 'The plan is written. ' } });

    // The second request of the turn carries the first reply's reasoning.
    const second = server.streamRequests()[1].body.messages;
    expect(second.find((m) => m.role === 'assistant')).toMatchObject({
      reasoning_content: 'The user wants a plan. Three steps will do.',
      tool_calls: [{ id: 'call_ds' }],
    });

    await h.sendAndWait(conversation.id, 'Thanks! Another thing');
    // A new user message starts a new turn: no reasoning from earlier turns goes out.
    const third = server.streamRequests()[2].body.messages;
    expect(third.filter((m) => m.role === 'assistant')).toHaveLength(2);
    expect(third.some((m) => 'reasoning_content' in m || 'reasoning' in m)).toBe(false);
  });

  it('OpenRouter `reasoning` deltas, between processing comments', async () => {
    server.push(shapes.openRouterReasoning);
    const conversation = await h.newConversation('OpenRouter');
    const { status } = await h.sendAndWait(conversation.id, 'How many r in strawberry?');
    expect(status.error).toBeNull();
    expect(h.messages(conversation.id)[1]).toMatchObject({
      status: 'complete',
      content: 'There are three.',
      reasoning: { text: 'Counting the letters: r, r, r.' },
      error: null,
    });
  });

  it('<think> inside content is the reasoning, not the answer, even with split tags', async () => {
    server.push(shapes.thinkTagsInContent);
    const conversation = await h.newConversation('R1');
    await h.sendAndWait(conversation.id, 'Train or plane?');
    const reply = h.messages(conversation.id)[1];
    expect(reply).toMatchObject({ content: 'Take the train.', reasoning: { text: '\nWeighing the options carefully.' } });
    expect(reply.reasoning!.durationMs).not.toBeNull();
    // No streamed update ever showed the tags or the thinking as the answer.
    const shown = h.eventsOf('messages:changed').filter((e) => e.message.id === reply.id).map((e) => e.message.content);
    expect(shown.every((text) => !/think|Weighing/.test(text))).toBe(true);
  });

  it('a title from a model that thinks in <think> tags is what follows the thinking', async () => {
    server.push(shapes.thinkTagsInContent, { text: '<think>\nA short title about travel.\n</think>\n\nRail versus air travel' });
    const conversation = await h.newConversation();
    await h.sendAndWait(conversation.id, 'Train or plane?');
    const changed = await h.waitForEvent('conversations:changed', (c) => c.id === conversation.id && c.conversation?.titleSource === 'auto' && c.conversation.title !== 'New conversation');
    expect(changed.conversation?.title).toBe('Rail versus air travel');
  });

  it('all reasoning and no content: the thinking is kept and a note says there was no answer', async () => {
    server.push(shapes.reasoningOnly);
    const conversation = await h.newConversation('Silent');
    const { status } = await h.sendAndWait(conversation.id, 'Well?');
    expect(status.error).toBeNull();
    expect(h.messages(conversation.id)[1]).toMatchObject({
      status: 'complete',
      content: '',
      reasoning: { text: 'Hmm, let me think. And think some more.' },
      error: NO_ANSWER_NOTE,
    });
    // An answerless reply is not sent back to the model.
    server.push({ text: 'Answer.' });
    await h.sendAndWait(conversation.id, 'Please answer');
    expect(server.streamRequests()[1].body.messages.filter((m) => m.role === 'assistant')).toEqual([]);
  });
});
