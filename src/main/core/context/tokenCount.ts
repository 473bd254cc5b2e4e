// Token counts with gpt-tokenizer (o200k_base: exact for current OpenAI models, a close
// estimate for others). Counts are cached by text, so a history is not re-tokenized every
// round: only messages that are new since the last request are counted. A history nobody
// has counted yet (an import, a database of an older version, the first send after a
// start) would cost seconds to count at once: past EXACT_PER_TASK characters in one task,
// texts are estimated from their characters and counted in the background instead, in
// small batches between other work, so a send never waits for them.
import { createRequire } from 'node:module';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { Message } from '../../../shared/domain';

// gpt-tokenizer builds its 200,000-entry table when imported (a noticeable share of
// start-up, docs/performance.md): it is required on first use, or shortly after start-up (`warmUp`).
let counter: ((text: string) => number) | null = null;
function countTokens(text: string): number {
  counter ??= (createRequire(import.meta.url)('gpt-tokenizer') as typeof import('gpt-tokenizer')).countTokens;
  return counter(text);
}

/** Per message: the role and the separators a chat template adds. */
const MESSAGE_OVERHEAD = 4;
const CACHE_MAX = 50_000;
/** Characters counted exactly within one task (a short task of tokenizing); the rest is estimated. */
export const EXACT_PER_TASK = 64 * 1024;
/** Characters one background batch counts before yielding (a few ms). */
const BATCH_CHARS = 16 * 1024;

/**
 * A token count from the characters alone, on the high side so a window is not overfilled:
 * o200k averages about 4 characters a token in English and code; a character outside
 * ASCII (CJK, emoji) is counted as a token of its own.
 */
export function estimateTokens(text: string): number {
  let ascii = 0;
  let other = 0;
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) < 128) ascii++;
    else other++;
  }
  return Math.ceil(ascii / 3) + other;
}
/**
 * An image part, whatever its size: OpenAI bills a high-detail image at 85 tokens plus
 * 170 per 512 px tile (765 for 1024×1024, 1,105 for 2048×1024); other vendors are close.
 * Without decoding the image, a round figure at the upper end keeps the window honest.
 */
export const IMAGE_TOKENS = 1_100;

export function createTokenCounter(options: { exactPerTask?: number } = {}) {
  const cache = new Map<string, number>();
  const exactPerTask = options.exactPerTask ?? EXACT_PER_TASK;
  let spent = 0;
  let renewing = false;
  const later = new Set<string>();
  let pumping = false;

  function remember(value: string, counted: number): void {
    if (cache.size >= CACHE_MAX) {
      // Forget the oldest fifth (Map keeps insertion order).
      let drop = CACHE_MAX / 5;
      for (const key of cache.keys()) {
        cache.delete(key);
        if (--drop <= 0) break;
      }
    }
    cache.set(value, counted);
  }

  /** Counts what was estimated, a batch per macrotask, until none is left. */
  function pump(): void {
    let chars = 0;
    for (const value of later) {
      later.delete(value);
      if (!cache.has(value)) remember(value, countTokens(value));
      chars += value.length;
      if (chars >= BATCH_CHARS) break;
    }
    if (later.size) setImmediate(pump).unref?.();
    else pumping = false;
  }

  function text(value: string): number {
    // Every text is looked up, short ones too: finding a count costs a fraction of counting
    // even "OK" (docs/performance.md), and a long conversation's history is mostly short messages.
    if (!value) return 0;
    const known = cache.get(value);
    if (known !== undefined) return known;
    if (!renewing) {
      renewing = true;
      setImmediate(() => {
        spent = 0;
        renewing = false;
      }).unref?.();
    }
    if (spent + value.length > exactPerTask) {
      // A text longer than a batch (a transcript to summarize, a huge paste) keeps its estimate.
      if (value.length <= BATCH_CHARS && later.size < CACHE_MAX) later.add(value);
      if (!pumping && later.size) {
        pumping = true;
        setImmediate(pump).unref?.();
      }
      return estimateTokens(value);
    }
    spent += value.length;
    const counted = countTokens(value);
    remember(value, counted);
    return counted;
  }

  function message(m: ChatCompletionMessageParam): number {
    let n = MESSAGE_OVERHEAD;
    if (typeof m.content === 'string') n += text(m.content);
    else if (Array.isArray(m.content)) {
      for (const part of m.content) {
        if (part.type === 'text') n += text(part.text);
        else if (part.type === 'image_url') n += IMAGE_TOKENS;
      }
    }
    if (m.role === 'assistant' && m.tool_calls) {
      for (const call of m.tool_calls) {
        if (call.type === 'function') n += MESSAGE_OVERHEAD + text(call.function.name) + text(call.function.arguments);
      }
    }
    return n;
  }

  return {
    text,
    message,
    /** A count kept from before (the messages table): later lookups of the text find it. */
    known(value: string, counted: number): void {
      if (value && !cache.has(value)) remember(value, counted);
    },
    /** The exact count, whatever this task has spent: for work done between other work. */
    exact(value: string): number {
      const known = cache.get(value);
      if (known !== undefined) return known;
      const counted = countTokens(value);
      remember(value, counted);
      return counted;
    },
    /** Counts without keeping the text (a warm-up of the encoder). */
    countOnly: (value: string) => countTokens(value),
    /** Loads the tokenizer soon, off the start-up path, so the first request does not wait. */
    warmUp: (afterMs = 300) => setTimeout(() => countTokens(''), afterMs).unref(),
    messages: (list: ChatCompletionMessageParam[]) => list.reduce((n, m) => n + message(m), 0),
    /** Texts estimated and not yet counted (tests wait for 0). */
    pending: () => later.size,
  };
}

export type TokenCounter = ReturnType<typeof createTokenCounter>;

/**
 * A message's attachments in tokens, estimated from their sizes without reading them
 * (for choosing how much history to load and what to summarize; the request itself is
 * measured exactly): an image as IMAGE_TOKENS, text at 4 bytes a token, a PDF's text at
 * about a quarter of its file size.
 */
export function attachmentTokens(message: Pick<Message, 'attachments'>): number {
  let n = 0;
  for (const file of message.attachments ?? []) {
    n += file.kind === 'image' ? IMAGE_TOKENS : Math.ceil(file.size / (file.kind === 'pdf' ? 16 : 4));
  }
  return n;
}
