// Saved prompts, inserted by typing "/" at the start of the composer. Kept with the
// settings; exported and imported as a `stepwise.prompts` JSON file.
import { z } from 'zod';
import { INSTRUCTIONS_MAX } from './instructions';

export const SavedPrompt = z.object({
  title: z
    .string()
    .trim()
    .min(1, { error: 'a saved prompt needs a title' })
    .max(100, { error: 'a prompt title must be at most 100 characters' }),
  text: z
    .string()
    .min(1, { error: 'a saved prompt needs text' })
    .max(INSTRUCTIONS_MAX, { error: `a saved prompt must be at most ${INSTRUCTIONS_MAX} characters` }),
});
export type SavedPrompt = z.infer<typeof SavedPrompt>;

export const PROMPTS_MAX = 500;
export const PromptLibrary = z.array(SavedPrompt).max(PROMPTS_MAX, { error: `at most ${PROMPTS_MAX} saved prompts` });

export const PROMPTS_FORMAT = 'stepwise.prompts';
export const PromptLibraryFile = z.object({
  format: z.literal(PROMPTS_FORMAT),
  version: z.literal(1),
  prompts: PromptLibrary,
});

export function promptLibraryJson(prompts: SavedPrompt[]): string {
  return `${JSON.stringify({ format: PROMPTS_FORMAT, version: 1, prompts }, null, 2)}\n`;
}

/** The prompts of an exported file (or a bare array of them), or a message saying what is wrong. */
export function parsePromptLibrary(
  text: string,
): { ok: true; prompts: SavedPrompt[] } | { ok: false; message: string } {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return { ok: false, message: 'The file is not JSON.' };
  }
  const parsed = Array.isArray(data) ? PromptLibrary.safeParse(data) : PromptLibraryFile.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return {
      ok: false,
      message: `Not a prompt library: ${issue ? `${issue.path.join('.') || 'file'}: ${issue.message}` : 'unknown shape'}.`,
    };
  }
  return { ok: true, prompts: Array.isArray(parsed.data) ? parsed.data : parsed.data.prompts };
}

/** Imported prompts replace saved ones of the same title; the others are added. */
export function mergePrompts(saved: SavedPrompt[], incoming: SavedPrompt[]): SavedPrompt[] {
  const byTitle = new Map(saved.map((p) => [p.title, p]));
  for (const prompt of incoming) byTitle.set(prompt.title, prompt);
  return [...byTitle.values()];
}

/** The prompts whose title (or text) contains the query, titles first. */
export function filterPrompts(prompts: SavedPrompt[], query: string): SavedPrompt[] {
  const q = query.toLowerCase();
  const inTitle = prompts.filter((p) => p.title.toLowerCase().includes(q));
  const inText = prompts.filter((p) => !p.title.toLowerCase().includes(q) && p.text.toLowerCase().includes(q));
  return [...inTitle, ...inText];
}

/** The composer's own commands ("/" lists them after the saved prompts). */
export const SLASH_COMMANDS: readonly SavedPrompt[] = [
  { title: '/clear', text: '/clear' },
  { title: '/compact', text: '/compact' },
];

/** What "/" plus `query` lists: the matching saved prompts, then the matching commands. */
export function slashOptions(prompts: SavedPrompt[], query: string): SavedPrompt[] {
  const q = query.toLowerCase().replace(/^\//, '');
  return [...filterPrompts(prompts, query), ...SLASH_COMMANDS.filter((c) => c.title.slice(1).startsWith(q))];
}
