// Reasoning models (issue 12, section 1, points 3–5): `reasoning_content`, `reasoning` and
// `<think>` become the message's reasoning with a duration, never part of the answer; the
// reasoning goes back as `reasoning_content` within the tool-calling turn only.
import { describe, expect, it } from 'vitest';
import { type ScriptedServer } from '../support/scriptedServer';
import { chatCorePerTest, type ChatHarness } from '../support/chatHarness';
import * as shapes from '../support/sseFixtures';
import { NO_ANSWER_NOTE } from '../../src/main/core/llm/turnOutcome';
import type { Message } from '../../src/shared/domain';
import type { EventPayload } from '../../src/shared/ipc';

/** What a page sees of one reply, event by event: full messages and streamed appends. */
function replay(harness: ChatHarness, id: number): Array<{ content: string; reasoning: string; ms: number | null }> {
  const states: Array<{ content: string; reasoning: string; ms: number | null }> = [];
  let state = { content: '', reasoning: '', ms: null as number | null };
  for (const { event, payload } of harness.events) {
    if (event === 'messages:changed') {
      const { message } = payload as { message: Message };
      if (message.id !== id) continue;
      state = {
        content: message.content,
        reasoning: message.reasoning?.text ?? '',
        ms: message.reasoning?.durationMs ?? null,
      };
    } else if (event === 'messages:streamed') {
      const delta = payload as EventPayload<'messages:streamed'>;
      if (delta.messageId !== id) continue;
      if (delta.content) expect(delta.content.at).toBe(state.content.length);
      if (delta.reasoning) expect(delta.reasoning.at).toBe(state.reasoning.length);
      state = {
        content: state.content + (delta.content?.text ?? ''),
        reasoning: state.reasoning + (delta.reasoning?.text ?? ''),
        ms: delta.reasoningMs ?? state.ms,
      };
    } else continue;
    states.push(state);
  }
  return states;
}

let server: ScriptedServer;
let h: ChatHarness;
// Every streamed state is pushed (no 50 ms coalescing): the tests replay what the page saw.
chatCorePerTest(
  (s, c) => {
    server = s;
    h = c;
  },
  { chat: { emitIntervalMs: 0 } },
);

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
    expect(replay(h, call.id).at(-1)).toEqual({
      content: '',
      reasoning: call.reasoning!.text,
      ms: call.reasoning!.durationMs,
    });
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
    expect(reply).toMatchObject({
      content: 'Take the train.',
      reasoning: { text: '\nWeighing the options carefully.' },
    });
    expect(reply.reasoning!.durationMs).not.toBeNull();
    // No update ever showed the tags or the thinking as the answer; the thinking streamed as such.
    const seen = replay(h, reply.id);
    expect(seen.every((state) => !/think|Weighing/.test(state.content))).toBe(true);
    expect(seen.some((state) => state.reasoning && !state.content)).toBe(true);
    expect(seen.at(-1)).toEqual({
      content: reply.content,
      reasoning: reply.reasoning!.text,
      ms: reply.reasoning!.durationMs,
    });
  });

  it('a </think> with no opening tag takes back the text so far as reasoning, and the page follows', async () => {
    server.push({
      raw: [
        shapes.chunk({ role: 'assistant', content: 'The template opened the tag, ' }),
        { pauseMs: 40 },
        shapes.chunk({ content: 'so I think here.</think>' }),
        shapes.chunk({ content: 'Hello!' }),
        shapes.chunk({}, 'stop'),
        shapes.DONE,
      ],
    });
    const conversation = await h.newConversation('Template');
    await h.sendAndWait(conversation.id, 'Hi');
    const reply = h.messages(conversation.id)[1];
    expect(reply).toMatchObject({
      content: 'Hello!',
      reasoning: { text: 'The template opened the tag, so I think here.' },
    });
    const seen = replay(h, reply.id);
    expect(seen.some((state) => state.content.startsWith('The template'))).toBe(true);
    expect(seen.at(-1)).toEqual({
      content: 'Hello!',
      reasoning: reply.reasoning!.text,
      ms: reply.reasoning!.durationMs,
    });
  });

  it('a title from a model that thinks in <think> tags is what follows the thinking', async () => {
    server.push(shapes.thinkTagsInContent, {
      text: '<think>\nA short title about travel.\n</think>\n\nRail versus air travel',
    });
    const conversation = await h.newConversation();
    await h.sendAndWait(conversation.id, 'Train or plane?');
    const changed = await h.waitForEvent(
      'conversations:changed',
      (c) =>
        c.id === conversation.id &&
        c.conversation?.titleSource === 'auto' &&
        c.conversation.title !== 'New conversation',
    );
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
