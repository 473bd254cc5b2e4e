// "/" at the start of the composer lists the saved prompts and the commands (/clear,
// /compact), filtered by what follows it;
// ↑/↓ choose, Enter (or a click) inserts the prompt in place of the "/…", Esc closes.
// The message box keeps the focus; the list is announced through aria-activedescendant.
import { useId, useState, type KeyboardEvent } from 'react';
import { slashOptions } from '../../shared/promptLibrary';
import { useSettings } from '../settings/useSettings';
import './instructions.css';

export function usePromptSlash(text: string, setText: (value: string) => void) {
  const settings = useSettings();
  const listId = useId();
  const [active, setActive] = useState(0);
  const [dismissed, setDismissed] = useState<string | null>(null);
  const query = /^\/([^\n]*)$/.exec(text)?.[1];
  const matches = query === undefined || !settings ? [] : slashOptions(settings.prompts, query.trim());
  const open = matches.length > 0 && dismissed !== text;
  const current = Math.min(active, matches.length - 1);

  const insert = (index: number) => {
    const prompt = matches[index];
    if (!prompt) return;
    setText(prompt.text);
    setActive(0);
  };

  /** True when the key was the list's. */
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>): boolean => {
    if (!open) return false;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((current + step + matches.length) % matches.length);
    } else if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      insert(current);
    } else if (event.key === 'Escape') {
      setDismissed(text);
    } else {
      return false;
    }
    event.preventDefault();
    event.stopPropagation();
    return true;
  };

  const optionId = (index: number) => `${listId}-${index}`;
  const inputProps = open
    ? { 'aria-controls': listId, 'aria-activedescendant': optionId(current), 'aria-autocomplete': 'list' as const }
    : {};

  const list = open ? (
    <ul id={listId} role="listbox" aria-label="Commands and saved prompts" className="prompt-slash">
      {matches.map((prompt, index) => (
        <li
          key={prompt.title}
          id={optionId(index)}
          role="option"
          aria-selected={index === current}
          className={index === current ? 'active' : undefined}
          // Keeps the focus in the message box.
          onMouseDown={(e) => e.preventDefault()}
          onClick={() => insert(index)}
        >
          <strong>{prompt.title}</strong>
          <span>{prompt.text}</span>
        </li>
      ))}
    </ul>
  ) : null;

  return { list, onKeyDown, inputProps };
}
