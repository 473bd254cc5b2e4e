// Plan review's messages in the transcript: the quiet approval the agent continues with,
// as a "Plan approved · 5 tasks · revision 2" divider, the user's "Changes requested" with
// the edits and comments it sent (a list), and "Plan changed" with the plan before and after.
import type { Message } from '../../shared/domain';
import { plumbingLine, type PlumbingOf } from '../../shared/messageKinds';
import { describeChange } from '../../shared/planText';
import { revealBidiControls } from '../../shared/bidi';
import { LazyDetails } from './ToolCallCard';
import './PlanMessages.css';

export function planApprovedView(message: Message, plumbing: PlumbingOf<'plan_approved'>) {
  return (
    <article className="message continue-divider plan-approved" aria-label="Plan approved" data-message-id={message.id}>
      <span className="divider-text">{plumbingLine(plumbing)}</span>
    </article>
  );
}

function noteText(note: PlumbingOf<'changes_requested'>['comments'][number]): string {
  if (note.taskId === null) return `On the plan: ${note.text}`;
  return `On task ${note.taskId}${note.taskTitle !== null ? ` “${note.taskTitle}”` : ''}: ${note.text}`;
}

export function changesRequestedView(message: Message, plumbing: PlumbingOf<'changes_requested'>) {
  return (
    <article className="message plan-changes" aria-label="Changes requested" data-message-id={message.id}>
      <h3 className="plan-changes-title">Changes requested</h3>
      {plumbing.edits.length > 0 && (
        <>
          <p className="plan-changes-heading">Edits</p>
          <ul>
            {plumbing.edits.map((edit, i) => (
              <li key={i}>{revealBidiControls(describeChange(edit))}</li>
            ))}
          </ul>
        </>
      )}
      {plumbing.comments.length > 0 && (
        <>
          <p className="plan-changes-heading">Comments</p>
          <ul>
            {plumbing.comments.map((note, i) => (
              <li key={i}>{revealBidiControls(noteText(note))}</li>
            ))}
          </ul>
        </>
      )}
      <p className="plan-changes-heading">The list now reads</p>
      <ol>
        {plumbing.tasks.map((task) => (
          <li key={task.id}>{revealBidiControls(task.title)}</li>
        ))}
      </ol>
    </article>
  );
}

/** "Before tools that change things": the model changed the approved plan; a click shows before and after. */
export function planChangedView(message: Message, plumbing: PlumbingOf<'plan_changed'>) {
  const list = (items: string[]) => (
    <ol>
      {items.map((item, i) => (
        <li key={i}>{item}</li>
      ))}
    </ol>
  );
  return (
    <article className="message plan-changed" aria-label="Plan changed" data-message-id={message.id}>
      <LazyDetails
        className="tool-card quiet-card"
        summary={
          <summary>
            <span className="card-label">{plumbingLine(plumbing)}</span>
          </summary>
        }
      >
        {() => (
          <div className="tool-section plan-before-after">
            <div>
              <h4>Before</h4>
              {list(plumbing.before)}
            </div>
            <div>
              <h4>After</h4>
              {list(plumbing.after)}
            </div>
          </div>
        )}
      </LazyDetails>
    </article>
  );
}
