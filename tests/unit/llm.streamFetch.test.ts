// The fetch the agent loop gives the SDK: it passes every byte on unchanged however the
// body is cut into reads, and turns a JSON body into events. Driven through the real
// openai SDK, whose body reader this fetch's reader has to satisfy too.
import fc from 'fast-check';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { createStreamFetch } from '../../src/main/core/llm/streamFetch';

const chunk = (content: string) =>
  `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 0, model: 'm', choices: [{ index: 0, delta: { content }, finish_reason: null }] })}\n\n`;
const WORDS = Array.from({ length: 40 }, (_, i) => `word${i} `);
const BODY = WORDS.map(chunk).join('');

/** The body cut at `cuts` (positions in the text), each piece one read. */
function cutBody(text: string, cuts: number[]): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  const ends = [...new Set(cuts.map((c) => Math.min(c, bytes.length)))].sort((a, b) => a - b);
  const pieces: Uint8Array[] = [];
  let from = 0;
  for (const end of [...ends, bytes.length]) {
    if (end > from) pieces.push(bytes.slice(from, end));
    from = Math.max(from, end);
  }
  return new ReadableStream({
    pull(controller) {
      const next = pieces.shift();
      if (next) controller.enqueue(next);
      else controller.close();
    },
  });
}

/** Streams `text` (cut at `cuts`) through the SDK; the text it read. */
async function stream(text: string, cuts: number[] = []) {
  const fetch = createStreamFetch({
    idleTimeoutMs: 5_000,
    fetch: async () => new Response(cutBody(text, cuts), { headers: { 'content-type': 'text/event-stream' } }),
  });
  const client = new OpenAI({ baseURL: 'http://127.0.0.1:9/v1', apiKey: 'x', maxRetries: 0, fetch });
  const data = await client.chat.completions.create({
    model: 'm',
    stream: true,
    messages: [{ role: 'user', content: 'go' }],
  });
  let read = '';
  for await (const part of data) read += part.choices[0]?.delta?.content ?? '';
  return read;
}

describe('streamFetch', () => {
  it('passes every byte on, however the body is cut into reads', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.nat(BODY.length + 20), { maxLength: 30 }), async (cuts) => {
        expect(await stream(`${BODY}data: [DONE]\n\n`, cuts)).toBe(WORDS.join(''));
      }),
      { numRuns: 60 },
    );
  });

  it('turns a JSON body into the complete reply', async () => {
    const completion = {
      id: 'c',
      object: 'chat.completion',
      created: 0,
      model: 'm',
      choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'Whole.' } }],
    };
    expect(await stream(JSON.stringify(completion), [3])).toBe('Whole.');
  });
});
