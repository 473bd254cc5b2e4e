// The pure parts of stream handling: tool-call deltas from quirky servers, `<think>` tags
// split anywhere, what a finish reason means for the loop, a JSON reply turned into
// events, repeated errors, and reasoning sent back only within the current turn.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { repairHistory } from '../../src/main/core/context/apiMessages';
import { escalateRepeat } from '../../src/main/core/llm/chatErrors';
import { completionAsEvents } from '../../src/main/core/llm/streamFetch';
import { createThinkSplitter } from '../../src/main/core/llm/thinkTags';
import { createToolCallAccumulator } from '../../src/main/core/llm/toolCallAccumulator';
import { endTurn, foldChunk, newTurnState, reasoningOfTurn } from '../../src/main/core/llm/turnState';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import {
  CUT_OFF_RESULT,
  decideTurn,
  EMPTY_NOTE,
  FILTER_NOTE,
  FILTERED_RESULT,
  LENGTH_IN_CALL_NOTE,
  LENGTH_NOTE,
  NO_ANSWER_NOTE,
} from '../../src/main/core/llm/turnOutcome';
import type { ChatError } from '../../src/shared/domain';
import { message as msg } from '../support/messageFixture';

describe('tool-call deltas', () => {
  const names = (acc: ReturnType<typeof createToolCallAccumulator>) => acc.calls().map((c) => [c.name, c.arguments]);

  it('a new id without an index starts a new call; none continues the latest', () => {
    const acc = createToolCallAccumulator();
    acc.add([{ id: 'a', function: { name: 'manage_todo_list', arguments: '{"todo' } }]);
    acc.add([{ function: { arguments: 'List":[]}' } }]);
    acc.add([{ id: 'b', function: { name: 'get_current_time', arguments: '{}' } }]);
    expect(names(acc)).toEqual([
      ['manage_todo_list', '{"todoList":[]}'],
      ['get_current_time', '{}'],
    ]);
  });

  it('a new id at a taken index is a new call, not a merged name', () => {
    const acc = createToolCallAccumulator();
    acc.add([{ index: 0, id: 'a', function: { name: 'manage_todo_list', arguments: '{}' } }]);
    acc.add([{ index: 0, id: 'b', function: { name: 'get_current_time', arguments: '{}' } }]);
    expect(acc.calls().map((c) => c.name)).toEqual(['manage_todo_list', 'get_current_time']);
  });

  it('interleaved calls by index still join by index, and a repeated id or name changes nothing', () => {
    const acc = createToolCallAccumulator();
    acc.add([{ index: 0, id: 'a', function: { name: 'x', arguments: '{"a"' } }]);
    acc.add([{ index: 1, id: 'b', function: { name: 'y', arguments: '{"b"' } }]);
    acc.add([{ index: 0, id: 'a', function: { name: 'x', arguments: ':1}' } }]);
    acc.add([{ index: 1, function: { arguments: ':2}' } }]);
    expect(names(acc)).toEqual([
      ['x', '{"a":1}'],
      ['y', '{"b":2}'],
    ]);
  });

  it('arguments resent whole each time are replaced, not concatenated', () => {
    const full = '{"todoList":[{"id":1,"title":"Pack","status":"pending"}]}';
    const acc = createToolCallAccumulator();
    for (const end of [1, 12, 30, full.length, full.length]) {
      acc.add([{ index: 0, id: 'a', function: { name: 'manage_todo_list', arguments: full.slice(0, end) } }]);
    }
    expect(names(acc)).toEqual([['manage_todo_list', full]]);
  });

  it('a new id on a delta without a name continues the call (a proxy minting ids per chunk)', () => {
    const acc = createToolCallAccumulator();
    acc.add([{ index: 0, id: 'a', function: { name: 'x', arguments: '{"a"' } }]);
    acc.add([{ index: 0, id: 'z', function: { arguments: ':1}' } }]);
    expect(acc.calls()).toEqual([{ id: 'a', name: 'x', arguments: '{"a":1}' }]);
  });

  it('a call without any id gets one', () => {
    const acc = createToolCallAccumulator();
    acc.add([{ function: { name: 'x', arguments: '{}' } }]);
    expect(acc.calls()[0].id).toMatch(/^call_[0-9a-f]{24}$/);
  });
});

describe('<think> tags', () => {
  const split = (pieces: string[]) => {
    const s = createThinkSplitter();
    for (const p of pieces) s.push(p);
    return { ...s.end() };
  };

  it('separates the reasoning from the answer', () => {
    expect(split(['<think>Hmm.</think>\n\nYes.'])).toEqual({ reasoning: 'Hmm.', answer: 'Yes.' });
    expect(split(['  <think>a</think>b'])).toEqual({ reasoning: 'a', answer: 'b' });
  });

  it('leaves a reply without tags alone, including a later <think> it talks about', () => {
    expect(split(['Use <think> tags.'])).toEqual({ reasoning: '', answer: 'Use <think> tags.' });
    expect(split(['<thin'])).toEqual({ reasoning: '', answer: '<thin' });
    expect(split(['a < b'])).toEqual({ reasoning: '', answer: 'a < b' });
  });

  it('a closing tag alone (opened by the chat template) makes what came before it reasoning', () => {
    expect(split(['I should say hi.', '</think>', 'Hi!'])).toEqual({ reasoning: 'I should say hi.', answer: 'Hi!' });
  });

  it('an unclosed block is all reasoning', () => {
    expect(split(['<think>still going'])).toEqual({ reasoning: 'still going', answer: '' });
  });

  it('gives the same result however the content is cut into chunks', () => {
    const text = '<think>\nStep one. 5 < 6 > 4.\n</think>\n\nThe <b>answer</b> — 你好 🌍.';
    const whole = split([text]);
    expect(whole).toEqual({ reasoning: '\nStep one. 5 < 6 > 4.\n', answer: 'The <b>answer</b> — 你好 🌍.' });
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 1, max: text.length - 1 }), { maxLength: 12 }), (cuts) => {
        const at = [0, ...cuts.sort((a, b) => a - b), text.length];
        const pieces = at.slice(1).map((end, i) => text.slice(at[i], end));
        expect(split(pieces)).toEqual(whole);
      }),
    );
  });
});

describe('folding chunks', () => {
  const chunk = (choices: unknown[], extra: object = {}) =>
    ({ id: 'x', object: 'chat.completion.chunk', created: 0, model: 'm', choices, ...extra }) as ChatCompletionChunk;
  const delta = (d: object, finish: string | null = null) => chunk([{ index: 0, delta: d, finish_reason: finish }]);

  it('times the thinking from its first piece to the first piece of the answer', () => {
    const turn = newTurnState();
    expect(foldChunk(turn, delta({ role: 'assistant', content: '' }), 0)).toBe(false);
    foldChunk(turn, delta({ reasoning_content: 'Hm. ' }), 100);
    // A server that sends both fields sends the same text twice.
    foldChunk(turn, delta({ reasoning_content: 'Yes.', reasoning: 'Yes.' }), 400);
    foldChunk(turn, delta({ content: 'Answer' }), 1300);
    foldChunk(turn, delta({}, 'stop'), 2000);
    endTurn(turn, 2100);
    expect(reasoningOfTurn(turn)).toEqual({ text: 'Hm. Yes.', durationMs: 1200 });
    expect([turn.text, turn.finishReason]).toEqual(['Answer', 'stop']);
  });

  it('skips chunks without choices but keeps the usage they carry', () => {
    const turn = newTurnState();
    expect(foldChunk(turn, chunk([], { prompt_filter_results: [] }), 0)).toBe(false);
    expect(foldChunk(turn, chunk([], { usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 } }), 0)).toBe(
      false,
    );
    expect(turn.usage).toEqual({ prompt_tokens: 5, completion_tokens: 2 });
    expect(reasoningOfTurn(turn)).toBeNull();
  });
});

describe('what a finish reason means', () => {
  const call = (id: string, args: string) => ({ id, name: 'manage_todo_list', arguments: args });
  const base = { content: 'Text', toolCalls: [], reasoning: null };

  it('length inside a call: only the cut call is answered, with the cut-off result, and the loop goes on', () => {
    const decision = decideTurn({
      ...base,
      finishReason: 'length',
      toolCalls: [call('a', '{}'), call('b', '{"todoList":[{"id')],
    });
    expect(decision).toEqual({ note: LENGTH_IN_CALL_NOTE, answered: new Map([['b', CUT_OFF_RESULT]]), goOn: true });
    expect(CUT_OFF_RESULT).toMatch(/cut off at the output token limit/);
  });

  it('length in text: the length note, the turn ends', () => {
    expect(decideTurn({ ...base, finishReason: 'length' })).toMatchObject({ note: LENGTH_NOTE, goOn: false });
  });

  it('content_filter: the note, no call runs, the turn ends', () => {
    const decision = decideTurn({ ...base, finishReason: 'content_filter', toolCalls: [call('a', '{}')] });
    expect(decision).toEqual({ note: FILTER_NOTE, answered: new Map([['a', FILTERED_RESULT]]), goOn: false });
  });

  it('no answer: a note that depends on whether the model thought', () => {
    expect(decideTurn({ ...base, content: ' ', finishReason: 'stop' }).note).toBe(EMPTY_NOTE);
    expect(
      decideTurn({ ...base, content: '', finishReason: 'stop', reasoning: { text: 'hm', durationMs: 5 } }).note,
    ).toBe(NO_ANSWER_NOTE);
  });

  it('calls with any finish reason run (Ollama says "stop")', () => {
    expect(decideTurn({ ...base, finishReason: 'stop', toolCalls: [call('a', '{}')] })).toEqual({
      note: null,
      answered: new Map(),
      goOn: true,
    });
  });
});

describe('a JSON reply to a stream request', () => {
  it('becomes one chunk with the whole message, indexed calls and the finish reason, then [DONE]', () => {
    const events = completionAsEvents(
      JSON.stringify({
        id: 'x',
        object: 'chat.completion',
        choices: [
          {
            index: 0,
            finish_reason: 'tool_calls',
            message: {
              role: 'assistant',
              content: 'Hi',
              reasoning_content: 'think',
              tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{}' } }],
            },
          },
        ],
      }),
    );
    const [first, done] = events.split('\n\n').filter(Boolean);
    expect(done).toBe('data: [DONE]');
    expect(JSON.parse(first.slice('data: '.length))).toEqual({
      id: 'x',
      object: 'chat.completion.chunk',
      choices: [
        {
          index: 0,
          finish_reason: 'tool_calls',
          delta: {
            role: 'assistant',
            content: 'Hi',
            reasoning_content: 'think',
            tool_calls: [{ index: 0, id: 'c', type: 'function', function: { name: 'f', arguments: '{}' } }],
          },
        },
      ],
    });
  });

  it('an error body or unreadable text becomes an error event', () => {
    expect(completionAsEvents('{"error":{"message":"bad model"}}')).toBe('data: {"error":{"message":"bad model"}}\n\n');
    expect(completionAsEvents('{oops')).toMatch(
      /^data: \{"error":\{"message":"The server sent a reply that is neither an event stream nor JSON: \{oops"\}\}/,
    );
  });
});

describe('an error repeating on retry', () => {
  const rejected = (detail: string): ChatError => ({
    kind: 'unknown',
    message: `h rejected: ${detail}`,
    retryable: true,
    settings: false,
    detail,
  });

  it('escalates the second identical failure to the server’s words and Settings', () => {
    const next = escalateRepeat(rejected('missing field'), rejected('missing field'));
    expect(next).toMatchObject({ retryable: false, settings: true, detail: 'missing field' });
    expect(next.message).toContain('missing field');
  });

  it('leaves a first, a different, or a wordless failure alone', () => {
    expect(escalateRepeat(null, rejected('a'))).toEqual(rejected('a'));
    expect(escalateRepeat(rejected('a'), rejected('b'))).toEqual(rejected('b'));
    const dropped: ChatError = { kind: 'dropped', message: 'd', retryable: true, settings: false };
    expect(escalateRepeat(dropped, dropped)).toBe(dropped);
  });
});

describe('reasoning sent back', () => {
  const thought = (text: string) => ({ text, durationMs: 1 });

  it('only on the assistant messages after the last user message', () => {
    const sent = repairHistory([
      msg({ role: 'user', content: 'one' }),
      msg({ role: 'assistant', content: 'old answer', reasoning: thought('old') }),
      msg({ role: 'user', content: 'two' }),
      msg({ role: 'assistant', toolCalls: [{ id: 'c', name: 'f', arguments: '{}' }], reasoning: thought('now') }),
      msg({ role: 'tool', content: 'r', toolCallId: 'c' }),
    ]).flat();
    expect(sent.filter((m) => m.role === 'assistant')).toEqual([
      { role: 'assistant', content: 'old answer' },
      expect.objectContaining({ reasoning_content: 'now', tool_calls: [expect.objectContaining({ id: 'c' })] }),
    ]);
  });
});
