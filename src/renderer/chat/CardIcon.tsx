// Small inline icons for transcript cards (SVG: no font or emoji the system may lack).
import type { CardIcon as IconName } from './toolSummary';

const PATHS: Record<IconName | 'done' | 'failed', string> = {
  // A checklist.
  tasks: 'M2 3h2v2H2zm4 .5h8v1H6zM2 7h2v2H2zm4 .5h8v1H6zM2 11h2v2H2zm4 .5h8v1H6z',
  // A person.
  worker: 'M8 2a3 3 0 1 1 0 6 3 3 0 0 1 0-6zm-5 12c0-2.8 2.2-5 5-5s5 2.2 5 5z',
  // A speech bubble.
  thought: 'M8 2C4.7 2 2 4.1 2 6.8c0 1.5.8 2.8 2.1 3.7L3.6 13l2.9-1.6c.5.1 1 .2 1.5.2 3.3 0 6-2.1 6-4.8S11.3 2 8 2z',
  // A gear-like cog.
  tool: 'M7 1h2l.4 2 1.6.7 1.7-1.1 1.4 1.4-1.1 1.7.7 1.6 2 .4v2l-2 .4-.7 1.6 1.1 1.7-1.4 1.4-1.7-1.1-1.6.7L9 15H7l-.4-2-1.6-.7-1.7 1.1-1.4-1.4 1.1-1.7L2.3 9 .3 8.6v-2l2-.4.7-1.6-1.1-1.7 1.4-1.4 1.7 1.1L6.6 2zM8 5.5a2.5 2.5 0 1 0 0 5 2.5 2.5 0 0 0 0-5z',
  // A tick in a circle.
  done: 'M8 1a7 7 0 1 1 0 14A7 7 0 0 1 8 1zm3.2 4.3L7 9.5 4.8 7.3l-1 1L7 11.5l5.2-5.2z',
  // A cross in a circle.
  failed: 'M8 1a7 7 0 1 1 0 14A7 7 0 0 1 8 1zM5.5 4.5l-1 1L7 8l-2.5 2.5 1 1L8 9l2.5 2.5 1-1L9 8l2.5-2.5-1-1L8 7z',
};

export function CardIcon({ name }: { name: keyof typeof PATHS }) {
  return (
    <svg className="card-icon" aria-hidden="true" viewBox="0 0 16 16" width="13" height="13">
      <path fill="currentColor" fillRule="evenodd" d={PATHS[name]} />
    </svg>
  );
}
