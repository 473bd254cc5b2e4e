// The keyboard and ARIA wiring of a list that opens over the composer as the user types
// (the "/" prompts, the "@" resources): ↑/↓ move the active option, Enter (or a click)
// chooses it, Esc closes the list until the text changes. The message box keeps the
// focus; the active option is announced through aria-activedescendant.
import { useId, useState, type KeyboardEvent, type MouseEvent } from 'react';

export function useListKeyboard<T>(props: {
  /** The composer's text: Esc closes the list for this text only. */
  text: string;
  options: readonly T[];
  /** False while something else (an arguments form) takes the list's place. */
  shown: boolean;
  /** The active option's index; the caller owns it to set it back to the first after a choice. */
  active: number;
  setActive: (index: number) => void;
  choose: (option: T) => void;
}) {
  const { text, options, active, setActive, choose } = props;
  const listId = useId();
  const [dismissed, setDismissed] = useState<string | null>(null);
  const open = props.shown && options.length > 0 && dismissed !== text;
  const current = Math.min(active, options.length - 1);

  /** True when the key was the list's. */
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>): boolean => {
    if (!open) return false;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((current + step + options.length) % options.length);
    } else if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      const option = options[current];
      if (option !== undefined) choose(option);
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
  const listProps = { id: listId, role: 'listbox' as const };
  const optionProps = (index: number) => ({
    id: optionId(index),
    role: 'option' as const,
    'aria-selected': index === current,
    className: index === current ? 'active' : undefined,
    // Keeps the focus in the message box.
    onMouseDown: (event: MouseEvent) => event.preventDefault(),
    onClick: () => {
      const option = options[index];
      if (option !== undefined) choose(option);
    },
  });

  return { open, onKeyDown, inputProps, listProps, optionProps };
}
