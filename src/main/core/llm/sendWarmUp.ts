// What the first send after a start paid and no later send does (issue 39): V8 compiling
// the openai SDK's client (it builds every resource class when constructed), the
// tokenizer's encoder and the send call's zod schemas on first use. Done once in idle time
// after start-up, a step per macrotask, so the first send costs what a warm one does.
// The first request's connection and SQLite's page cache are not warmed: the page reads
// the open conversation at first paint, and a connection needs a request.
import OpenAI from 'openai';
import { calls } from '../../../shared/ipc';
import type { TokenCounter } from '../context/tokenCount';

/** After the tokenizer's own warm-up (300 ms), when start-up's work is done. */
const AFTER_MS = 1_000;

/** Words, Markdown, code and numbers: the encoder's paths a history takes. */
const SAMPLE =
  'Warm-up: the **widget-42** config had 3 issues; `check(7)` reports what changed. ' +
  'See [the notes](https://example.com/a?b=1). Ünïcödé, 漢字, emoji 🙂 and\n```ts\nconst x = 1;\n```';

export function warmUpSend(tokens: TokenCounter, afterMs = AFTER_MS): () => void {
  const steps = [
    () => tokens.countOnly(SAMPLE),
    () => new OpenAI({ apiKey: 'warm-up', baseURL: 'http://127.0.0.1:9/v1', maxRetries: 0 }),
    () => calls['messages:send'].request.safeParse({ conversationId: 'warm-up', content: SAMPLE }),
    () => calls['messages:send'].response.safeParse({ id: 0, role: 'user', content: SAMPLE }),
  ];
  let immediate: NodeJS.Immediate | null = null;
  const next = () => {
    immediate = null;
    steps.shift()?.();
    if (steps.length) immediate = setImmediate(next).unref();
  };
  const timer = setTimeout(next, afterMs).unref();
  return () => {
    clearTimeout(timer);
    if (immediate) clearImmediate(immediate);
  };
}
