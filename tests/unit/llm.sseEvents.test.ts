// The host's reader of server-sent events: the SSE rules the openai SDK follows, whatever
// line ends a server uses and however its bytes are cut into reads.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSseDecoder, type SseEvent } from '../../src/main/core/llm/sseEvents';

function decode(pieces: string[]): SseEvent[] {
  const out: SseEvent[] = [];
  const decoder = createSseDecoder((event) => out.push(event));
  for (const piece of pieces) decoder.push(piece);
  decoder.end();
  return out;
}

const STREAM = [
  ': keep-alive',
  'data: {"a":1}',
  '',
  'event: error',
  'data:{"error":{"message":"x"}}',
  '',
  'data: first line',
  'data:  second, with its own space',
  'id: 7',
  '',
  '',
  ': OPENROUTER PROCESSING',
  '',
  'data: [DONE]',
  '',
];

const EXPECTED: SseEvent[] = [
  { event: null, data: '{"a":1}' },
  { event: 'error', data: '{"error":{"message":"x"}}' },
  { event: null, data: 'first line\n second, with its own space' },
  { event: null, data: '[DONE]' },
];

describe('server-sent events', () => {
  it('reads data, event names and comments as the SSE rules say, with any line end', () => {
    for (const end of ['\n', '\r\n', '\r']) expect(decode([STREAM.join(end) + end])).toEqual(EXPECTED);
  });

  it('gives the same events however the text is cut into reads', () => {
    fc.assert(
      fc.property(fc.constantFrom('\n', '\r\n', '\r'), fc.array(fc.nat(400), { maxLength: 40 }), (end, cuts) => {
        const text = STREAM.join(end) + end;
        const at = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
        const pieces = [0, ...at].map((from, i) => text.slice(from, [...at, text.length][i]));
        expect(decode(pieces)).toEqual(EXPECTED);
      }),
      { numRuns: 300 },
    );
  });

  it('keeps a last event whose blank line never came', () => {
    expect(decode(['data: {"a":1}\n\ndata: [DONE]'])).toEqual([
      { event: null, data: '{"a":1}' },
      { event: null, data: '[DONE]' },
    ]);
  });
});
