// How much Markdown the page parses in one task. Parsing costs in proportion to the text
// (docs/performance.md, "Figures behind the code"), and a stream the page fell behind on arrives as one large batch of new blocks: parsed
// at once, that batch was the longest task of a stream. Blocks past the budget show as
// plain text for one task and are parsed in the next ones, a budget's worth each.

/** Characters of Markdown parsed per task: well under a frame's budget of work per task. */
export const PARSE_BUDGET = 12_000;

let spent = 0;
let renewing = false;
const waiting = new Set<() => void>();

function renew(): void {
  renewing = false;
  spent = 0;
  const wake = [...waiting];
  waiting.clear();
  for (const w of wake) w();
}

// A message to ourselves runs as the next task, without the 4 ms clamp of nested timers.
let channel: MessageChannel | null = null;
function renewSoon(): void {
  if (renewing) return;
  renewing = true;
  if (!channel) {
    channel = new MessageChannel();
    channel.port1.onmessage = renew;
  }
  channel.port2.postMessage(null);
}

/**
 * Whether a block of `chars` characters may be parsed in this task. The first block of a
 * task always may (a block larger than the budget still renders); `force` (the block a
 * stream grows) always may, and counts against the budget all the same.
 */
export function takeParseBudget(chars: number, force = false): boolean {
  renewSoon();
  if (!force && spent > 0 && spent + chars > PARSE_BUDGET) return false;
  spent += chars;
  return true;
}

/** Calls `wake` in the next task, when the budget is renewed; returns a canceller. */
export function whenParseBudget(wake: () => void): () => void {
  waiting.add(wake);
  renewSoon();
  return () => void waiting.delete(wake);
}
