// Server-sent events read from a streamed body, one read at a time: every event the read
// completed is handed over synchronously. The openai SDK's own reader chains four async
// generators per event (bytes → SSE chunks → lines → events → normalized chunks), a
// promise and a few microtasks each; for a local server streaming one token per event
// that was most of the host's CPU. The parsing itself is eventsource-parser's (the SSE
// rules: \n, \r\n or \r; `:` comments; `data` lines joined by \n); this adds only what the
// SDK does at the end of a body: an event whose final blank line never came still counts.
import { createParser } from 'eventsource-parser';

export interface SseEvent {
  event: string | null;
  data: string;
}

export interface SseDecoder {
  /** Decoded text of one read; `onEvent` is called for every event it completes. */
  push(text: string): void;
  /** The body ended: the last line and event, even without their line ends. */
  end(): void;
}

export function createSseDecoder(onEvent: (event: SseEvent) => void): SseDecoder {
  const parser = createParser({ onEvent: ({ event, data }) => onEvent({ event: event ?? null, data }) });
  return {
    push: (text) => parser.feed(text),
    // Two line ends close an unfinished line and then the event it belongs to.
    end: () => parser.feed('\n\n'),
  };
}
