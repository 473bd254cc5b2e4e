// What Stepwise reads from a stdio MCP server, one JSON-RPC message per line, at most
// READ_LIMIT_BYTES a message. The SDK's own reader throws at that size and the transport
// then closes: the server is killed and restarted, and the call reads as a crash. This
// reader instead skips the oversized line and answers the request it belonged to with an
// error naming the size, so the server keeps running with its state.
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

export const READ_LIMIT_BYTES = 10 * 1024 * 1024;
/** The JSON-RPC error code of that answer (in the range for implementation errors). */
export const RESULT_TOO_LARGE = -32_050;

/** The SDK's ReadBuffer as its stdio transport uses it. */
export interface ReadBufferLike {
  append(chunk: Buffer): void;
  readMessage(): JSONRPCMessage | null;
  clear(): void;
}

export const megabytes = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1)} MB`;

/** A response's id sits at the end of the line the SDK's servers write (`…,"jsonrpc":"2.0","id":7}`), or at its start. */
function idOf(head: string, tail: string): string | number | null {
  const match =
    /"id"\s*:\s*(\d+|"(?:[^"\\]|\\.)*")\s*\}\s*$/.exec(tail) ??
    /^\s*\{\s*"(?:jsonrpc"\s*:\s*"2\.0"\s*,\s*")?id"\s*:\s*(\d+|"(?:[^"\\]|\\.)*")/.exec(head);
  if (!match) return null;
  return match[1].startsWith('"') ? (JSON.parse(match[1]) as string) : Number(match[1]);
}

/** A log message's params as they arrive, before any schema check. */
export type RawLog = { level?: unknown; logger?: unknown; data?: unknown };

/**
 * A server's log line (`notifications/message`), read without the SDK's schema checks: a
 * server that floods its log would otherwise cost two schema checks a line on the main
 * thread, and the log keeps only the last 500 anyway (mcpLog.ts).
 */
function logParams(line: string): RawLog | null {
  if (!line.includes('notifications/message')) return null;
  try {
    const message = JSON.parse(line) as { method?: unknown; id?: unknown; params?: unknown };
    if (message.method !== 'notifications/message' || message.id !== undefined) return null;
    return message.params && typeof message.params === 'object' ? (message.params as RawLog) : null;
  } catch {
    return null;
  }
}

export function limitedReadBuffer(
  parse: (line: string) => JSONRPCMessage,
  limit = READ_LIMIT_BYTES,
  onLog?: (params: RawLog) => void,
): ReadBufferLike {
  let buffer: Buffer | null = null;
  const ready: JSONRPCMessage[] = [];
  /** While an oversized line is being skipped: its size so far, its first and last bytes. */
  let skipping: { bytes: number; head: string; tail: Buffer } | null = null;

  function oversized(bytes: number, head: string, tail: string) {
    const id = idOf(head, tail);
    // A notification or a line without an id has no request to answer: it is dropped.
    if (id === null) return;
    ready.push({
      jsonrpc: '2.0',
      id,
      error: {
        code: RESULT_TOO_LARGE,
        message: `The answer is ${megabytes(bytes)}, over the ${megabytes(limit).replace('.0', '')} Stepwise reads from a server.`,
        data: { bytes, limit },
      },
    });
  }

  function skip(chunk: Buffer): Buffer | null {
    const end = chunk.indexOf('\n');
    const part = end < 0 ? chunk : chunk.subarray(0, end);
    skipping!.bytes += part.length;
    skipping!.tail = Buffer.concat([skipping!.tail, part]).subarray(-256);
    if (end < 0) return null;
    oversized(skipping!.bytes, skipping!.head, skipping!.tail.toString('utf8'));
    skipping = null;
    return chunk.subarray(end + 1);
  }

  return {
    append(chunk: Buffer) {
      const rest = skipping ? skip(chunk) : chunk;
      if (!rest?.length) return;
      buffer = buffer ? Buffer.concat([buffer, rest]) : rest;
      // The line still arriving, once over the limit, is skipped as it comes (whole lines
      // over it are answered in readMessage).
      const partialFrom = buffer.lastIndexOf('\n') + 1;
      if (buffer.length - partialFrom > limit) {
        const partial = buffer.subarray(partialFrom);
        skipping = { bytes: partial.length, head: partial.toString('utf8', 0, 256), tail: partial.subarray(-256) };
        buffer = partialFrom ? buffer.subarray(0, partialFrom) : null;
      }
    },
    readMessage() {
      for (;;) {
        if (ready.length) return ready.shift()!;
        if (!buffer) return null;
        const end = buffer.indexOf('\n');
        if (end < 0) return null;
        const line = buffer.toString('utf8', 0, end).replace(/\r$/, '');
        buffer = buffer.subarray(end + 1);
        if (end > limit) {
          oversized(end, line.slice(0, 256), line.slice(-256));
          continue;
        }
        const log = onLog && logParams(line);
        if (!log) return parse(line);
        onLog!(log);
      }
    },
    clear() {
      buffer = null;
      skipping = null;
      ready.length = 0;
    },
  };
}
