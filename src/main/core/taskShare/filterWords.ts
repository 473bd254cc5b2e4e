// The words of a list_task_lists text filter, bounded so that no filter costs more than a
// short one: folded as the board folds (Unicode), each word once, at most 16 of them from
// at most 200 characters. More is refused with a message, never cut silently.
import { foldForSearch } from '../db/foldedText';

export const FILTER_TEXT_MAX = 200;
export const FILTER_WORDS_MAX = 16;

export class FilterTooLong extends Error {}

export function filterWords(text: string): string[] {
  if (text.length > FILTER_TEXT_MAX) {
    throw new FilterTooLong(`The text filter is ${text.length} characters long; use at most ${FILTER_TEXT_MAX}.`);
  }
  const words = [...new Set(foldForSearch(text).split(/\s+/).filter(Boolean))];
  if (words.length > FILTER_WORDS_MAX) {
    throw new FilterTooLong(
      `The text filter has ${words.length} different words; use at most ${FILTER_WORDS_MAX} (a list matches when it holds every word).`,
    );
  }
  return words;
}

/** The trigram tokenizer matches nothing for fewer than three characters (code points). */
export const INDEXED_WORD_MIN = 3;

/**
 * The FTS5 query that narrows a filter's lists to those holding all of its words of three or
 * more characters (each a quoted phrase, so no word is read as query syntax); null when
 * every word is shorter, and only the exact check applies.
 */
export function indexQuery(words: readonly string[]): string | null {
  const long = words.filter((word) => [...word].length >= INDEXED_WORD_MIN);
  return long.length ? long.map((word) => `"${word.replaceAll('"', '""')}"`).join(' ') : null;
}
