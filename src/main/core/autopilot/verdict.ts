// The assessor's answer is model output: parse it defensively. Anything doubtful is
// not a verdict, so Autopilot pauses instead of marking a task done.
import { z } from 'zod';

export const Verdict = z.object({ done: z.boolean(), reason: z.string() });
export type Verdict = z.infer<typeof Verdict>;

export type VerdictResult = { ok: true; verdict: Verdict } | { ok: false; problem: string };

/** Finds the first balanced {...} block, so prose or code fences around it are tolerated. */
function firstJsonObject(text: string): string | null {
  const start = text.indexOf('{');
  if (start < 0) return null;
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return text.slice(start, i + 1);
  }
  return null;
}

export function parseVerdict(text: string): VerdictResult {
  const block = firstJsonObject(text);
  if (!block) return { ok: false, problem: 'the assessor did not answer with JSON' };
  let raw: unknown;
  try {
    raw = JSON.parse(block);
  } catch {
    return { ok: false, problem: 'the assessor answered with malformed JSON' };
  }
  const parsed = Verdict.safeParse(raw);
  if (!parsed.success) return { ok: false, problem: 'the assessor answer lacks a boolean "done" and a "reason"' };
  return { ok: true, verdict: parsed.data };
}
