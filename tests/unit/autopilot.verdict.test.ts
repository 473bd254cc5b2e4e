import { describe, expect, it } from 'vitest';
import { parseVerdict } from '../../src/main/core/autopilot/verdict';

describe('parseVerdict', () => {
  it.each([
    ['{"done": true, "reason": "tests pass"}', { done: true, reason: 'tests pass' }],
    ['```json\n{"done": false, "reason": "no file yet"}\n```', { done: false, reason: 'no file yet' }],
    [
      'Verdict: {"done": true, "reason": "uses } and { in \\"text\\""} — end',
      { done: true, reason: 'uses } and { in "text"' },
    ],
  ])('accepts %j', (text, verdict) => {
    expect(parseVerdict(text)).toEqual({ ok: true, verdict });
  });

  it.each([
    ['yes, it is done', 'did not answer with JSON'],
    ['{"done": tru', 'did not answer with JSON'],
    ['{"done": yes}', 'malformed JSON'],
    ['{"done": "true", "reason": "string, not boolean"}', 'lacks a boolean'],
    ['{"reason": "missing done"}', 'lacks a boolean'],
    ['', 'did not answer with JSON'],
  ])('refuses %j as doubtful', (text, problem) => {
    const result = parseVerdict(text);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.problem).toContain(problem);
  });
});
