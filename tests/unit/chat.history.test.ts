// History → API messages: repair (no unclosed tool call ever reaches the API), trimming
// to a budget, tool calls accumulated from split chunks, title cleaning, error mapping.
import { describe, expect, it } from 'vitest';
import { AuthenticationError, InternalServerError, NotFoundError, RateLimitError, APIConnectionError } from 'openai';
import {
  buildApiMessages,
  CUT_OFF_RESULT,
  MISSING_RESULT,
  repairHistory,
  trimToBudget,
} from '../../src/main/core/context/apiMessages';
import { createToolCallAccumulator } from '../../src/main/core/llm/toolCallAccumulator';
import { cleanTitle, fallbackTitle } from '../../src/main/core/llm/autoTitle';
import { redact, toChatError } from '../../src/main/core/llm/chatErrors';
import { message as msg } from '../support/messageFixture';

const call = (id: string, args = '{}') => ({ id, name: 'get_current_time', arguments: args });

describe('repairHistory', () => {
  it('keeps a well-formed history as is', () => {
    const groups = repairHistory([
      msg({ role: 'user', content: 'hi' }),
      msg({ role: 'assistant', content: 'checking', toolCalls: [call('a')] }),
      msg({ role: 'tool', content: 'noon', toolCallId: 'a' }),
      msg({ role: 'assistant', content: 'It is noon.' }),
    ]);
    expect(groups.flat()).toEqual([
      { role: 'user', content: 'hi' },
      {
        role: 'assistant',
        content: 'checking',
        tool_calls: [{ id: 'a', type: 'function', function: { name: 'get_current_time', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: 'a', content: 'noon' },
      { role: 'assistant', content: 'It is noon.' },
    ]);
  });

  it('fills missing results, drops orphans and duplicates, orders results like the calls', () => {
    const flat = repairHistory([
      msg({ role: 'user', content: 'go' }),
      msg({
        role: 'assistant',
        content: '',
        status: 'interrupted',
        toolCalls: [call('a'), call('b', '{"cut'), call('c')],
      }),
      msg({ role: 'tool', content: 'C', toolCallId: 'c' }),
      msg({ role: 'system', content: 'a note' }),
      msg({ role: 'tool', content: 'A', toolCallId: 'a' }),
      msg({ role: 'tool', content: 'A again', toolCallId: 'a' }),
      msg({ role: 'tool', content: 'orphan', toolCallId: 'zzz' }),
      msg({ role: 'user', content: 'next' }),
      msg({ role: 'tool', content: 'late orphan', toolCallId: 'b' }),
    ]).flat();
    expect(flat.map((m) => [m.role, 'tool_call_id' in m ? m.tool_call_id : null, m.content])).toEqual([
      ['user', null, 'go'],
      ['assistant', null, null],
      ['tool', 'a', 'A'],
      ['tool', 'b', CUT_OFF_RESULT],
      ['tool', 'c', 'C'],
      ['user', null, 'next'],
    ]);
    const assistant = flat[1] as { tool_calls: Array<{ function: { arguments: string } }> };
    expect(assistant.tool_calls.map((c) => c.function.arguments)).toEqual(['{}', '{}', '{}']);
  });

  it('closes a tool call at the very end of the history', () => {
    const flat = repairHistory([
      msg({ role: 'user', content: 'go' }),
      msg({ role: 'assistant', toolCalls: [call('x')] }),
    ]).flat();
    expect(flat.at(-1)).toEqual({ role: 'tool', tool_call_id: 'x', content: MISSING_RESULT });
  });

  it('says a complete reply’s call without a result may have run, never that it did not', () => {
    // A complete reply's calls run after it is stored: one without a result was in flight at a crash.
    expect(MISSING_RESULT).toContain('may have run');
    expect(MISSING_RESULT).not.toMatch(/interrupted|did not run/);
    expect(CUT_OFF_RESULT).toContain('did not run');
  });

  it('skips system notes and empty failed replies, keeps partial text', () => {
    const flat = repairHistory([
      msg({ role: 'user', content: 'a' }),
      msg({ role: 'assistant', content: '', status: 'error', error: 'boom' }),
      msg({ role: 'system', content: 'Stopped after 25 tool rounds' }),
      msg({ role: 'assistant', content: 'partial', status: 'stopped' }),
    ]).flat();
    expect(flat).toEqual([
      { role: 'user', content: 'a' },
      { role: 'assistant', content: 'partial' },
    ]);
  });
});

describe('trimToBudget and buildApiMessages', () => {
  const history = [
    msg({ role: 'user', content: 'old question '.repeat(20) }),
    msg({ role: 'assistant', content: 'old answer '.repeat(20), toolCalls: [call('t')] }),
    msg({ role: 'tool', content: 'old result', toolCallId: 't' }),
    msg({ role: 'assistant', content: 'old final' }),
    msg({ role: 'user', content: 'new question' }),
  ];

  it('drops the oldest history first, never splits a tool turn and always starts with a user message', () => {
    const groups = repairHistory(history);
    const trimmed = trimToBudget(groups, 200);
    expect(trimmed.flat()).toEqual([{ role: 'user', content: 'new question' }]);
    expect(trimToBudget(groups, 1_000_000)).toEqual(groups);
  });

  it('keeps the newest message even when it alone is over budget', () => {
    expect(trimToBudget(repairHistory(history), 1).flat()).toEqual([{ role: 'user', content: 'new question' }]);
  });

  it('always keeps the system prompt first', () => {
    const messages = buildApiMessages('SYSTEM', history, 10);
    expect(messages[0]).toEqual({ role: 'system', content: 'SYSTEM' });
    expect(messages.at(-1)).toEqual({ role: 'user', content: 'new question' });
  });
});

describe('tool call accumulation', () => {
  it('joins split arguments of several interleaved calls by index', () => {
    const acc = createToolCallAccumulator();
    acc.add([{ index: 0, id: 'a', function: { name: 'one', arguments: '{"x"' } }]);
    acc.add([{ index: 1, id: 'b', function: { name: 'two', arguments: '' } }]);
    acc.add([
      { index: 0, function: { arguments: ': 1}' } },
      { index: 1, function: { arguments: '{}' } },
    ]);
    acc.add([{ index: 0, function: { name: 'one' } }]);
    expect(acc.calls()).toEqual([
      { id: 'a', name: 'one', arguments: '{"x": 1}' },
      { id: 'b', name: 'two', arguments: '{}' },
    ]);
  });

  it('gives a call without an id a stable one', () => {
    const acc = createToolCallAccumulator();
    acc.add([{ function: { name: 'one', arguments: '{}' } }]);
    const [first] = acc.calls();
    expect(first.id).toMatch(/^call_[0-9a-f]{24}$/);
    expect(acc.calls()[0].id).toBe(first.id);
  });
});

describe('titles', () => {
  it.each([
    ['"Planning a Trip to Japan."', 'Planning a Trip to Japan'],
    ['Title: **Rust borrow checker**', 'Rust borrow checker'],
    ['# Weekly meal prep\n\nMore text', 'Weekly meal prep'],
    ['one two three four five six seven eight nine ten', 'one two three four five six seven eight'],
    ['   ', ''],
    // Plain text: HTML and Markdown are taken out, their words kept.
    ['<b>Fixing</b> the <i>login</i> bug', 'Fixing the login bug'],
    ['<script>alert(1)</script>Safe title', 'alert(1)Safe title'],
    ['[Trip to Japan](https://example.com) notes', 'Trip to Japan notes'],
    ['`parse_args` and __init__ fixes', 'parse_args and init fixes'],
    ['> - ~~Old~~ *new* plan &amp; budget', 'Old new plan & budget'],
    ['<!-- hidden --> Visible <br/> words', 'Visible words'],
  ])('cleanTitle(%j) = %j', (raw, expected) => {
    expect(cleanTitle(raw)).toBe(expected);
  });

  it('falls back to the first six words', () => {
    expect(fallbackTitle('  Why is\nthe sky blue during the day?')).toBe('Why is the sky blue during…');
    expect(fallbackTitle('Short one')).toBe('Short one');
    expect(fallbackTitle('<div>**Help** me with [this](http://x.example)</div>')).toBe('Help me with this');
  });
});

describe('errors', () => {
  const ctx = { model: 'gpt-x', baseUrl: 'https://api.example.com/v1', apiKey: 'sk-secret-value' };
  const headers = new Headers();

  it('maps SDK errors to what the user can do', () => {
    expect(toChatError(new AuthenticationError(401, {}, 'bad', headers), ctx)).toMatchObject({
      kind: 'auth',
      settings: true,
      retryable: false,
    });
    expect(toChatError(new NotFoundError(404, {}, 'nf', headers), ctx).message).toContain('"gpt-x"');
    expect(toChatError(new RateLimitError(429, {}, 'rl', headers), ctx)).toMatchObject({
      kind: 'rate',
      retryable: true,
    });
    expect(toChatError(new InternalServerError(503, {}, 'x', headers), ctx)).toMatchObject({
      kind: 'server',
      retryable: true,
    });
    expect(toChatError(new APIConnectionError({ message: 'refused' }), ctx)).toMatchObject({
      kind: 'network',
      retryable: true,
    });
    expect(toChatError(Object.assign(new TypeError('terminated'), {}), ctx)).toMatchObject({ kind: 'dropped' });
  });

  it('redacts the key from any text', () => {
    expect(redact('key sk-secret-value twice sk-secret-value', 'sk-secret-value')).toBe(
      'key [redacted] twice [redacted]',
    );
    expect(toChatError(new Error('failed with sk-secret-value'), ctx).message).not.toContain('sk-secret-value');
  });
});
