// One worker's live transcript. Tab / Shift+Tab cycle through workers, Esc goes back.
import { useEffect } from 'react';
import type { Worker } from '../../shared/agents';
import { call, useApi } from '../api/apiContext';
import { useGuard } from '../common/toasts';
import { useMessages } from '../chat/useMessages';
import { MessageList } from '../chat/MessageList';
import { Composer } from '../chat/Composer';

function isTextEntry(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));
}

/** Tab cycles workers unless the user is typing; an empty answer box does not hold it. */
function canCycleFrom(target: EventTarget | null): boolean {
  if (!isTextEntry(target)) return true;
  return target instanceof HTMLTextAreaElement && target.value === '' && target.closest('.worker-view') !== null;
}

export function WorkerView(props: { workers: Worker[]; worker: Worker; onSelect: (id: string) => void; onBack: () => void }) {
  const { worker, workers } = props;
  const api = useApi();
  const guard = useGuard();
  const { messages, hasOlder, loadOlder } = useMessages(worker.id);
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
      <MessageList messages={messages} hasOlder={hasOlder} onLoadOlder={loadOlder} actions={{ running: worker.status === 'running', onEditLast: () => {}, onRegenerate: () => {} }} readOnly />
      {worker.needsInput && (
        <Composer
          running={false}
          onStop={() => {}}
          label={`Answer worker ${worker.number}`}
          placeholder={`Worker ${worker.number} is waiting for your answer…`}
          onSend={async (content) => (await guard(() => call(api, 'workers:answer', { workerId: worker.id, content }))) !== undefined}
        />
      )}
    </section>
  );
}
