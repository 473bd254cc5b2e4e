// The model's reasoning above its reply: collapsed to one line with how long it thought,
// expanded on request. The thinking is model output like the answer, so it is shown as
// plain text, never as HTML.
import { useId, useState } from 'react';
import type { Reasoning } from '../../shared/domain';
import './ThinkingBlock.css';

export function formatThinkingTime(ms: number): string {
  if (ms < 1000) return `${Math.max(0.1, Math.round(ms / 100) / 10)} s`;
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const rest = seconds % 60;
  return rest ? `${Math.floor(seconds / 60)} min ${rest} s` : `${seconds / 60} min`;
}

export function ThinkingBlock({ reasoning, streaming }: { reasoning: Reasoning; streaming: boolean }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const live = streaming && reasoning.durationMs === null;
  const time = reasoning.durationMs === null ? null : formatThinkingTime(reasoning.durationMs);
  return (
    <div className={`thinking${live ? ' thinking-live' : ''}`}>
      <button
        type="button"
        className="thinking-toggle"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen(!open)}
      >
        <span className="thinking-chevron" aria-hidden="true" />
        <span className="thinking-label">{live ? 'Thinking…' : 'Thinking'}</span>
        {time && <span className="thinking-time">· {time}</span>}
      </button>
      {open && (
        <div id={id} className="thinking-text" role="region" aria-label="Thinking" tabIndex={0}>
          {reasoning.text.trim()}
        </div>
      )}
    </div>
  );
}
