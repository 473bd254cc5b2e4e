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
