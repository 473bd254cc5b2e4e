// Messages Stepwise itself adds to a conversation (plumbing kinds, shared/messageKinds.ts),
// shown quietly by their kind and payload: Autopilot's next task as a "Continuing: <task>"
// divider, a worker's result as one line that opens to the result, the plan review's
// messages, the note Stop leaves. A kind without a view of its own here shows its line.
import { revealBidiControls } from '../../shared/bidi';
import type { Message } from '../../shared/domain';
import { plumbingDetails, plumbingLine, type Plumbing, type PlumbingOf } from '../../shared/messageKinds';
import { CardIcon } from './CardIcon';
import { Markdown } from './LazyMarkdown';
import { LazyDetails } from './ToolCallCard';
import './toolCards.css';
import { changesRequestedView, planApprovedView, planChangedView } from './PlanMessages';

function divider(message: Message, plumbing: Plumbing, label: string) {
  return (
    <article className="message continue-divider" aria-label={label} data-message-id={message.id}>
      <span className="divider-text">{revealBidiControls(plumbingLine(plumbing))}</span>
    </article>
  );
}

function workerResultView(message: Message, result: PlumbingOf<'worker_result'>) {
  return (
    <article className="message worker-result" aria-label="Worker message" data-message-id={message.id}>
      <LazyDetails
        className={`tool-card quiet-card worker-${result.verb}`}
        summary={
          <summary>
            <span className="tool-icon" aria-hidden="true">
              <CardIcon name={result.verb === 'finished' ? 'done' : 'failed'} />
            </span>
            <span className="card-label">{plumbingLine(result)}</span>
          </summary>
        }
      >
        {() => (
          <div className="tool-section worker-result-body">
            <Markdown text={result.body || '(no result)'} />
          </div>
        )}
      </LazyDetails>
    </article>
  );
}

/** The note Stop leaves: one line that opens to what every agent was doing and where the list stood. */
function stopNoteView(message: Message, note: PlumbingOf<'stop_note'>) {
  return (
    <article className="message stop-note" aria-label="Stop note" data-message-id={message.id}>
      <LazyDetails
        className="tool-card quiet-card"
        summary={
          <summary>
            <span className="card-label">{plumbingLine(note)}</span>
          </summary>
        }
      >
        {() => (
          <ul className="tool-section">
            {plumbingDetails(note).map((line, i) => (
              <li key={i}>{revealBidiControls(line)}</li>
            ))}
          </ul>
        )}
      </LazyDetails>
    </article>
  );
}

/** The quiet form of a plumbing message, or null for every other message. */
export function plumbingView(message: Message) {
  const plumbing = message.plumbing;
  if (!plumbing) return null;
  switch (plumbing.kind) {
    case 'plan_approved':
      return planApprovedView(message, plumbing);
    case 'changes_requested':
      return changesRequestedView(message, plumbing);
    case 'plan_changed':
      return planChangedView(message, plumbing);
    case 'next_task':
    case 'continue':
      return divider(message, plumbing, 'Autopilot message');
    case 'external_change':
      return divider(message, plumbing, 'Task change by another agent');
    case 'worker_result':
      return workerResultView(message, plumbing);
    case 'stop_note':
      return stopNoteView(message, plumbing);
    default:
      return divider(message, plumbing, 'Stepwise message');
  }
}
