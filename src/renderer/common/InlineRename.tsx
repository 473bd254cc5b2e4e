// An inline title editor: Enter saves, Esc cancels, leaving the field saves.
import { useEffect, useRef, useState } from 'react';
import './InlineRename.css';

export function InlineRename(props: {
  initial: string;
  label: string;
  className?: string;
  onDone: (title: string | null) => void;
}) {
  const [value, setValue] = useState(props.initial);
  const ref = useRef<HTMLInputElement>(null);
  const done = useRef(false);
  useEffect(() => {
    ref.current?.focus();
    ref.current?.select();
  }, []);
  const finish = (title: string | null) => {
    if (done.current) return;
    done.current = true;
    props.onDone(title === null ? null : title.trim() || null);
  };
  return (
    <input
      ref={ref}
      className={`inline-rename ${props.className ?? ''}`}
      aria-label={props.label}
      value={value}
      maxLength={200}
      onChange={(e) => setValue(e.target.value)}
      onBlur={() => finish(value)}
      onKeyDown={(e) => {
        if (e.key === 'Enter') {
          e.preventDefault();
          finish(value);
        } else if (e.key === 'Escape') {
          e.preventDefault();
          e.stopPropagation();
          finish(null);
        }
      }}
    />
  );
}
