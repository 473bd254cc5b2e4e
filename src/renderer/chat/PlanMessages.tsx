// Plan review's messages in the transcript: the quiet approval the agent continues with,
// as a "Plan approved · 5 tasks · revision 2" divider, and the user's "Changes requested"
// with the edits and comments it sent. The stored text (and every export) stays as sent.
import type { Message } from '../../shared/domain';
import { approvedDivider, changesRequestedBody, parsePlanChanged } from '../../shared/planText';
import { LazyDetails } from './ToolCallCard';
import { Markdown } from './LazyMarkdown';
import './PlanMessages.css';

export function planMessageView(message: Message) {
  const divider = message.origin === 'auto' ? approvedDivider(message.content) : null;
  if (divider) {
    return (
      <article
        className="message continue-divider plan-approved"
        aria-label="Plan approved"
        data-message-id={message.id}
      >
        <span className="divider-text">{divider}</span>
      </article>
    );
  }
  const body = message.origin === 'user' ? changesRequestedBody(message.content) : null;
  if (body === null) return null;
  return (
    <article className="message plan-changes" aria-label="Changes requested" data-message-id={message.id}>
      <h3 className="plan-changes-title">Changes requested</h3>
      <Markdown text={body} />
    </article>
  );
}

/** "Before tools that change things": the model changed the approved plan; a click shows before and after. */
export function planChangedView(message: Message) {
  const changed = parsePlanChanged(message.content);
  if (!changed) return null;
  const list = (items: string[]) => (
    <ol>
      {items.map((item, i) => (
        <li key={i}>{item.replace(/^\d+\. /, '')}</li>
      ))}
    </ol>
  );
  return (
    <article className="message plan-changed" aria-label="Plan changed" data-message-id={message.id}>
      <LazyDetails
        className="tool-card quiet-card"
        summary={
          <summary>
            <span className="card-label">Plan changed: {changed.summary}</span>
          </summary>
        }
      >
        {() => (
          <div className="tool-section plan-before-after">
            <div>
              <h4>Before</h4>
              {list(changed.before)}
            </div>
            <div>
              <h4>After</h4>
              {list(changed.after)}
            </div>
          </div>
        )}
      </LazyDetails>
    </article>
  );
}
