// Messages Stepwise itself adds to a conversation, shown quietly: Autopilot's
// `NEXT_TODO: …` as a "Continuing: <task>" divider and a worker's result as one line that
// opens to the result. The stored text (and every export) keeps the raw message.
import { NEXT_TODO, parseWorkerResult } from '../../shared/agents';
import { revealBidiControls } from '../../shared/bidi';
import type { Message } from '../../shared/domain';
import { parseExternalChangeNote } from '../../shared/taskShareNote';
import { CardIcon } from './CardIcon';
import { Markdown } from './LazyMarkdown';
import { LazyDetails } from './ToolCallCard';
import './toolCards.css';
import { planChangedView, planMessageView } from './PlanMessages';

/** The quiet form of a message, or null when it is shown as a normal message. */
export function plumbingView(message: Message) {
  const external = message.role === 'system' ? parseExternalChangeNote(message.content) : null;
  if (external) {
    return (
      <article
        className="message continue-divider"
        aria-label="Task change by another agent"
        data-message-id={message.id}
      >
        <span className="divider-text">{revealBidiControls(message.content)}</span>
      </article>
    );
  }
  if (message.role === 'system') return planChangedView(message);
  if (message.role !== 'user') return null;
  const plan = planMessageView(message);
  if (plan) return plan;
  if (message.origin === 'auto' && message.content.startsWith(NEXT_TODO)) {
    const task = message.content.slice(NEXT_TODO.length).trim();
    return (
      <article className="message continue-divider" aria-label="Autopilot message" data-message-id={message.id}>
        <span className="divider-text">Continuing: {revealBidiControls(task)}</span>
      </article>
    );
  }
  const result = message.origin === 'worker' ? parseWorkerResult(message.content) : null;
  if (!result) return null;
  const task = result.taskId !== null ? ` task ${result.taskId}` : '';
  const label =
    result.verb === 'finished'
      ? `Worker ${result.worker} finished${task}`
      : `Worker ${result.worker} failed${task ? ` on${task}` : ''}`;
  return (
    <article className="message worker-result" aria-label="Worker message" data-message-id={message.id}>
      <LazyDetails
        className={`tool-card quiet-card worker-${result.verb}`}
        summary={
          <summary>
            <span className="tool-icon" aria-hidden="true">
              <CardIcon name={result.verb === 'finished' ? 'done' : 'failed'} />
            </span>
            <span className="card-label">{label}</span>
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
