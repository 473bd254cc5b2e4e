// Plan review's messages in the transcript: the quiet approval the agent continues with,
// as a "Plan approved · 5 tasks · revision 2" divider, and the user's "Changes requested"
// with the edits and comments it sent. The stored text (and every export) stays as sent.
import type { Message } from '../../shared/domain';
import { approvedDivider, changesRequestedBody } from '../../shared/planText';
import { Markdown } from './LazyMarkdown';
import './PlanMessages.css';

export function planMessageView(message: Message) {
  const divider = message.origin === 'auto' ? approvedDivider(message.content) : null;
  if (divider) {
    return (
      <article className="message continue-divider plan-approved" aria-label="Plan approved" data-message-id={message.id}>
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
