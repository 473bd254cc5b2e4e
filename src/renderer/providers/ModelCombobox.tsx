// "Default model": a text field that, once the server listed its models ("Load models"),
// also offers them in a list filtered by what is typed (ARIA combobox). Any name can still
// be typed: a server may serve models it does not list.
import { useEffect, useMemo, useRef, useState } from 'react';

const MAX_SHOWN = 200;

export function ModelCombobox(props: {
  id: string;
  value: string;
  models: string[];
  disabled?: boolean;
  /** Bumped when a list arrived: the list opens, all of it shown, and the field takes the focus. */
  openRequest: number;
  onChange: (value: string) => void;
  /** A model was chosen from the list, or the typed name left the field. */
  onCommit: (value: string) => void;
}) {
  const { models, openRequest } = props;
  const input = useRef<HTMLInputElement>(null);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  /** What filters the list; null right after opening it by key or button: all of it. */
  const [query, setQuery] = useState<string | null>(null);
  const listId = `${props.id}-models`;

  const shown = useMemo(() => {
    const q = (query ?? '').trim().toLowerCase();
    return (q ? models.filter((m) => m.toLowerCase().includes(q)) : models).slice(0, MAX_SHOWN);
  }, [models, query]);

  useEffect(() => {
    if (!openRequest || !models.length) return;
    setQuery(null);
    setActive(-1);
    setOpen(true);
    input.current?.focus();
    // Only a new request opens the list; a list that changes later does not.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [openRequest]);

  const expanded = open && shown.length > 0;

  const choose = (model: string) => {
    props.onChange(model);
    props.onCommit(model);
    setOpen(false);
    setActive(-1);
  };

  return (
    <div className="combobox">
      <input
        ref={input}
        id={props.id}
        role="combobox"
        aria-expanded={expanded}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={expanded && active >= 0 ? `${listId}-${active}` : undefined}
        autoComplete="off"
        spellCheck={false}
        value={props.value}
        disabled={props.disabled}
        placeholder={models.length ? 'Type or choose a model' : 'Model name'}
        onChange={(e) => {
          props.onChange(e.target.value);
          setQuery(e.target.value);
          setActive(-1);
          setOpen(true);
        }}
        onBlur={() => {
          setOpen(false);
          props.onCommit(props.value);
        }}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
            e.preventDefault();
            if (!expanded) {
              setQuery(null);
              setOpen(true);
              setActive(e.key === 'ArrowDown' ? 0 : models.length - 1);
            } else {
              setActive((i) => (e.key === 'ArrowDown' ? Math.min(i + 1, shown.length - 1) : Math.max(i - 1, 0)));
            }
          } else if (e.key === 'Enter' && expanded && active >= 0) {
            e.preventDefault();
            choose(shown[active]);
          } else if (e.key === 'Escape' && expanded) {
            // Closes the list only (not Settings around it).
            e.preventDefault();
            setOpen(false);
          }
        }}
      />
      <ul id={listId} role="listbox" aria-label="Models the server lists" className="combobox-list" hidden={!expanded}>
        {shown.map((model, i) => (
          <li
            key={model}
            id={`${listId}-${i}`}
            role="option"
            aria-selected={i === active}
            className={model === props.value ? 'current' : undefined}
            // Chosen on mousedown: a click would first blur the field and close the list.
            onMouseDown={(e) => {
              e.preventDefault();
              choose(model);
            }}
          >
            {model}
          </li>
        ))}
      </ul>
    </div>
  );
}
