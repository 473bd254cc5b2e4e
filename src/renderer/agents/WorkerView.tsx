// One worker's live transcript. Tab / Shift+Tab cycle through workers, Esc goes back.
import { useEffect, useState } from 'react';
import type { Worker } from '../../shared/agents';
import { useMessages } from '../chat/useMessages';
import { MessageList } from '../chat/MessageList';
import type { Question } from '../../shared/questions';
import { QuestionBanners } from '../questions/QuestionBanner';
import './workers.css';

function isTextEntry(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLElement &&
    (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName))
  );
}

/** Tab cycles workers unless the user is typing; an empty answer box does not hold it. */
function canCycleFrom(target: EventTarget | null): boolean {
  if (!isTextEntry(target)) return true;
  return target instanceof HTMLTextAreaElement && target.value === '' && target.closest('.worker-view') !== null;
}

export function WorkerView(props: {
  workers: Worker[];
  worker: Worker;
  /** The conversation's pending questions; this view shows its worker's. */
  questions: Question[];
  onSelect: (id: string) => void;
  onBack: () => void;
  /** A message to scroll to (a tool call's card, from the task ledger). */
  scrollToMessageId?: { id: number; nonce: number } | null;
}) {
  const { worker, workers } = props;
  const { messages, loaded, hasOlder, loadOlder, loadUntil } = useMessages(worker.id);
  const [target, setTarget] = useState<{ id: number; nonce: number } | null>(null);
  const wanted = props.scrollToMessageId ?? null;

  // Once the transcript is there, load back to the wanted message, then scroll to it.
  useEffect(() => {
    if (!wanted || !loaded) return;
    let live = true;
    void loadUntil(wanted.id).then(() => live && setTarget(wanted));
    return () => {
      live = false;
    };
  }, [wanted, loaded, loadUntil]);
  const index = workers.findIndex((w) => w.id === worker.id);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && !event.defaultPrevented) {
        event.preventDefault();
        props.onBack();
      } else if (event.key === 'Tab' && canCycleFrom(event.target) && workers.length > 1) {
        event.preventDefault();
        const next = (index + (event.shiftKey ? -1 : 1) + workers.length) % workers.length;
        props.onSelect(workers[next].id);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [index, workers, props]);

  return (
    <section className="worker-view" aria-label={`Worker ${worker.number} transcript`}>
      <div className="worker-banner" role="status">
        <span>
          <strong>
            Worker {worker.number} of {workers.length}
          </strong>{' '}
          — Tab to cycle, Esc to go back
        </span>
        <span className="worker-banner-task" title={worker.description}>
          {worker.taskId !== null ? `Task ${worker.taskId}: ` : ''}
          {worker.description}
        </span>
        <button type="button" className="ghost small" onClick={props.onBack}>
          Back to conversation
        </button>
      </div>
      <MessageList
        messages={messages}
        hasOlder={hasOlder}
        onLoadOlder={loadOlder}
        scrollToMessageId={target}
        actions={{ running: worker.status === 'running', agentName: `Worker ${worker.number}` }}
        readOnly
      />
      <QuestionBanners questions={props.questions.filter((q) => q.workerId === worker.id)} />
    </section>
  );
}
