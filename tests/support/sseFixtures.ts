// The stream shapes real OpenAI-compatible servers send, as raw bytes for the scripted
// server's `raw` turns. Each one is taken from a server's docs or bug tracker; the
// comment names where it is seen. Builders keep the JSON readable; the framing (line
// ends, `data:` spacing, comments, `[DONE]`) is spelled out where it is the point.
import type { RawPiece, Turn } from './scriptedServer';

const BASE = { id: 'chatcmpl-raw', object: 'chat.completion.chunk', created: 0, model: 'raw-model' };

/** One SSE event with a JSON payload, framed the standard way. */
export const data = (value: unknown) => `data: ${JSON.stringify(value)}\n\n`;
/** A chunk with one choice. */
export const chunk = (
  delta: Record<string, unknown>,
  finish: string | null = null,
  extra: Record<string, unknown> = {},
) => data({ ...BASE, choices: [{ index: 0, delta, finish_reason: finish }], ...extra });
export const DONE = 'data: [DONE]\n\n';

/** Three tasks for `manage_todo_list`: the shapes that carry a plan must write it. */
export const PLAN = ['Pack the bags', 'Book the train', 'Water the plants'];
export const TODO_ARGS = JSON.stringify({
  todoList: PLAN.map((title, i) => ({
    id: i + 1,
    title,
    status: i === 0 ? 'in_progress' : 'pending',
    ...(i === 0 ? { activeForm: 'Packing the bags' } : {}),
  })),
});
export const TIME_ARGS = '{"timeZone":"UTC"}';

const sse = (pieces: RawPiece[], more: Partial<Turn> = {}): Turn => ({ raw: pieces, ...more });

/** 1. Parallel calls without `index` (Gemini's OpenAI endpoint): each delta a whole call, told apart by id. */
export const parallelCallsWithoutIndex = sse([
  chunk({ role: 'assistant', content: 'Planning first.' }),
  chunk({
    tool_calls: [{ id: 'call_plan', type: 'function', function: { name: 'manage_todo_list', arguments: TODO_ARGS } }],
  }),
  chunk({
    tool_calls: [{ id: 'call_time', type: 'function', function: { name: 'get_current_time', arguments: TIME_ARGS } }],
  }),
  chunk({}, 'tool_calls'),
  DONE,
]);

/** 1b. Older Ollama: every call at index 0, arguments streamed after the id. */
export const parallelCallsAllIndexZero = sse([
  chunk({ role: 'assistant', content: '' }),
  chunk({
    tool_calls: [{ index: 0, id: 'call_p', type: 'function', function: { name: 'manage_todo_list', arguments: '' } }],
  }),
  chunk({ tool_calls: [{ index: 0, function: { arguments: TODO_ARGS.slice(0, 25) } }] }),
  chunk({ tool_calls: [{ index: 0, function: { arguments: TODO_ARGS.slice(25) } }] }),
  chunk({
    tool_calls: [
      { index: 0, id: 'call_t', type: 'function', function: { name: 'get_current_time', arguments: TIME_ARGS } },
    ],
  }),
  chunk({}, 'tool_calls'),
  DONE,
]);

/** 2. Arguments resent cumulatively, id and name repeated (some DeepSeek-compatible and GLM servers). */
export const cumulativeArguments = sse([
  ...[20, 60, TODO_ARGS.length].map((end) =>
    chunk({
      tool_calls: [
        {
          index: 0,
          id: 'call_cum',
          type: 'function',
          function: { name: 'manage_todo_list', arguments: TODO_ARGS.slice(0, end) },
        },
      ],
    }),
  ),
  chunk({}, 'tool_calls'),
  DONE,
]);

/** 3. DeepSeek / vLLM / Qwen: `reasoning_content` deltas, then a tool call. */
export const reasoningContentThenCall = sse([
  chunk({ role: 'assistant', content: null, reasoning_content: '' }),
  chunk({ reasoning_content: 'The user wants a plan. ' }),
  { pauseMs: 30 },
  chunk({ reasoning_content: 'Three steps will do.' }),
  chunk({
    tool_calls: [
      { index: 0, id: 'call_ds', type: 'function', function: { name: 'manage_todo_list', arguments: TODO_ARGS } },
    ],
  }),
  chunk({}, 'tool_calls'),
  DONE,
]);

export const reasoningContentThenAnswer = (thought: string, answer: string) =>
  sse([chunk({ role: 'assistant', reasoning_content: thought }), chunk({ content: answer }), chunk({}, 'stop'), DONE]);

/** 3b. OpenRouter: `reasoning` deltas, with its processing comments. */
export const openRouterReasoning = sse([
  ': OPENROUTER PROCESSING\n\n',
  chunk({ role: 'assistant', content: '', reasoning: 'Counting the letters: ' }),
  ': OPENROUTER PROCESSING\n\n',
  chunk({ content: '', reasoning: 'r, r, r.' }),
  chunk({ content: 'There are three.' }),
  chunk({}, 'stop'),
  DONE,
]);

/** 4. R1-style `<think>` inside content (Ollama, llama.cpp), tags split across chunks. */
export const thinkTagsInContent = sse([
  chunk({ role: 'assistant', content: '<thi' }),
  chunk({ content: 'nk>\nWeighing the options' }),
  chunk({ content: ' carefully.</th' }),
  { pauseMs: 40 },
  chunk({ content: 'ink>\n\nTake the ' }),
  chunk({ content: 'train.' }),
  chunk({}, 'stop'),
  DONE,
]);

/** 5. All reasoning, no content. */
export const reasoningOnly = sse([
  chunk({ role: 'assistant', reasoning_content: 'Hmm, let me think. ' }),
  chunk({ reasoning_content: 'And think some more.' }),
  chunk({ content: '' }, 'stop'),
  DONE,
]);

/** 6. `finish_reason` null on every chunk, then `[DONE]`. */
export const noFinishReasonThenDone = sse([
  chunk({ role: 'assistant', content: 'On it.' }),
  chunk({
    tool_calls: [
      {
        index: 0,
        id: 'call_nf',
        type: 'function',
        function: { name: 'manage_todo_list', arguments: TODO_ARGS.slice(0, 40) },
      },
    ],
  }),
  chunk({ tool_calls: [{ index: 0, function: { arguments: TODO_ARGS.slice(40) } }] }),
  DONE,
]);

/** 7. A whole JSON chat.completion answered to `stream: true` (sglang). */
export const jsonBodyForStream: Turn = {
  contentType: 'application/json',
  raw: [
    JSON.stringify({
      id: 'chatcmpl-json',
      object: 'chat.completion',
      created: 0,
      model: 'raw-model',
      choices: [
        {
          index: 0,
          finish_reason: 'tool_calls',
          message: {
            role: 'assistant',
            content: 'Here is the plan.',
            tool_calls: [
              { id: 'call_json', type: 'function', function: { name: 'manage_todo_list', arguments: TODO_ARGS } },
            ],
          },
        },
      ],
      usage: { prompt_tokens: 10, completion_tokens: 20, total_tokens: 30 },
    }),
  ],
};

/** 8. `: keep-alive` comments for a while (a model thinking), then the answer. */
export const keepAliveThenAnswer = (comments: number, everyMs: number, answer: string) =>
  sse([
    ...Array.from({ length: comments }, (): RawPiece[] => [': keep-alive\n\n', { pauseMs: everyMs }]).flat(),
    chunk({ role: 'assistant', content: answer }),
    chunk({}, 'stop'),
    DONE,
  ]);

/** 9. The output limit hit in the middle of a tool call's arguments. */
export const lengthInsideArguments = sse([
  chunk({ role: 'assistant', content: 'Writing the plan.' }),
  chunk({
    tool_calls: [
      {
        index: 0,
        id: 'call_len',
        type: 'function',
        function: { name: 'manage_todo_list', arguments: TODO_ARGS.slice(0, 45) },
      },
    ],
  }),
  chunk({}, 'length'),
  DONE,
]);

/** 10. The provider's content filter stops the reply. */
export const contentFilterStop = sse([
  chunk({ role: 'assistant', content: 'Here is how to ' }),
  chunk({ content: 'pick the lock' }),
  chunk({}, 'content_filter'),
  DONE,
]);

/** 12. Azure: an empty `choices` with prompt filter results first, filter annotations on every chunk. */
export const azureFilterAnnotations = sse([
  data({
    id: '',
    object: '',
    created: 0,
    model: '',
    choices: [],
    prompt_filter_results: [
      { prompt_index: 0, content_filter_results: { hate: { filtered: false, severity: 'safe' } } },
    ],
  }),
  chunk({ role: 'assistant', content: 'Hello from ' }, null, {}),
  data({
    ...BASE,
    choices: [
      {
        index: 0,
        delta: { content: 'Azure.' },
        finish_reason: null,
        content_filter_results: { hate: { filtered: false, severity: 'safe' } },
      },
    ],
  }),
  chunk({}, 'stop'),
  DONE,
]);

/** 12. A final chunk with usage and no choices (OpenAI with include_usage, vLLM). */
export const usageOnlyFinalChunk = sse([
  chunk({ role: 'assistant', content: 'Counted.' }),
  chunk({}, 'stop'),
  data({ ...BASE, choices: [], usage: { prompt_tokens: 5, completion_tokens: 1, total_tokens: 6 } }),
  DONE,
]);

/** 12. Ollama: the whole call in one chunk, with `finish_reason: "stop"`. */
export const ollamaCallWithStop = sse([
  chunk(
    {
      role: 'assistant',
      content: '',
      tool_calls: [
        { id: 'call_oll', index: 0, type: 'function', function: { name: 'manage_todo_list', arguments: TODO_ARGS } },
      ],
    },
    'stop',
  ),
  DONE,
]);

/** 12. No `[DONE]` at all: the body just ends after the finish reason. */
export const noDoneAtAll = sse([
  chunk({ role: 'assistant', content: 'Finished without a sentinel.' }),
  chunk({}, 'stop'),
]);

/** 12. CRLF line ends, and `data:` without a space. */
export const crlfNoSpace = sse([
  `data:${JSON.stringify({ ...BASE, choices: [{ index: 0, delta: { role: 'assistant', content: 'Line ends ' }, finish_reason: null }] })}\r\n\r\n`,
  `data:${JSON.stringify({ ...BASE, choices: [{ index: 0, delta: { content: 'from Windows.' }, finish_reason: null }] })}\r\n\r\n`,
  `data:${JSON.stringify({ ...BASE, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}\r\n\r\n`,
  'data:[DONE]\r\n\r\n',
]);

/** 12. One event's JSON split across three reads. */
export function jsonSplitAcrossReads(text: string): Turn {
  const event = chunk({ role: 'assistant', content: text });
  const third = Math.floor(event.length / 3);
  return sse([
    event.slice(0, third),
    { pauseMs: 20 },
    event.slice(third, 2 * third),
    { pauseMs: 20 },
    event.slice(2 * third),
    chunk({}, 'stop'),
    DONE,
  ]);
}

/** 12. Multi-byte characters cut between two reads. */
export function multiByteSplit(text: string): Turn {
  const bytes = Buffer.from(chunk({ role: 'assistant', content: text }), 'utf8');
  // Inside the first multi-byte character of the payload.
  const wide = [...text].find((c) => Buffer.byteLength(c) > 1)!;
  const cut = bytes.indexOf(Buffer.from(wide, 'utf8')) + 1;
  return sse([bytes.subarray(0, cut), { pauseMs: 20 }, bytes.subarray(cut), chunk({}, 'stop'), DONE]);
}

/** 12. An error object in the middle of the stream. */
export const midStreamErrorObject = sse([
  chunk({ role: 'assistant', content: 'Starting the answer' }),
  data({ error: { message: 'Upstream model overloaded, try again', code: 503 } }),
]);

/** 12. A named `event: error`. */
export const eventErrorStream = sse([
  chunk({ role: 'assistant', content: 'Partial' }),
  `event: error\ndata: ${JSON.stringify({ error: { message: 'The provider returned error 500 (upstream)' } })}\n\n`,
]);

/** 12. A 429 that says when to come back. */
export const rateLimitedWithRetryAfter = (seconds: string): Turn => ({
  status: 429,
  contentType: 'application/json',
  headers: { 'retry-after': seconds },
  raw: [JSON.stringify({ error: { message: 'Rate limit reached', type: 'rate_limit' } })],
});
