// Server-sent events read from a streamed body, one read at a time: every event the read
// completed is handed over synchronously. The openai SDK's own reader chains four async
// generators per event (bytes → SSE chunks → lines → events → normalized chunks), a
// promise and a few microtasks each; for a local server streaming one token per event
// that was most of the host's CPU. This reader follows the SSE rules the SDK follows
// (line ends \n, \r\n or \r; `:` comments; one optional space after the colon; `data`
// lines joined by \n; an event without its final blank line still counts at the end).

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
  /** A line not ended yet. */
  let partial = '';
  /** The previous text ended in \r: a \n opening the next is the same line end. */
  let afterCr = false;
  let event: string | null = null;
  let data: string[] = [];

  function line(text: string): void {
    if (!text) {
      if (event === null && !data.length) return;
      const done: SseEvent = { event, data: data.join('\n') };
      event = null;
      data = [];
      onEvent(done);
      return;
    }
    if (text.charCodeAt(0) === 58 /* : */) return;
    const colon = text.indexOf(':');
    const field = colon < 0 ? text : text.slice(0, colon);
    let value = colon < 0 ? '' : text.slice(colon + 1);
    if (value.charCodeAt(0) === 32 /* space */) value = value.slice(1);
    if (field === 'data') data.push(value);
    else if (field === 'event') event = value;
  }

  return {
    push(text) {
      let at = afterCr && text.charCodeAt(0) === 10 ? 1 : 0;
      afterCr = false;
      // Most servers send no \r at all: look for one once, not once per line.
      let cr = text.indexOf('\r', at);
      while (at < text.length) {
        const lf = text.indexOf('\n', at);
        if (cr >= 0 && cr < at) cr = text.indexOf('\r', at);
        const stop = cr < 0 ? lf : lf < 0 ? cr : Math.min(lf, cr);
        if (stop < 0) {
          partial += text.slice(at);
          return;
        }
        const whole = partial ? partial + text.slice(at, stop) : text.slice(at, stop);
        partial = '';
        at = stop + 1;
        if (stop === cr) {
          if (at === text.length) afterCr = true;
          else if (text.charCodeAt(at) === 10) at++;
        }
        line(whole);
      }
    },
    end() {
      if (partial) line(partial);
      partial = '';
      line('');
    },
  };
}
