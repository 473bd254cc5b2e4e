// The strip under the task header: counts, and a chip per worker to open its transcript.
import type { Worker } from '../../shared/agents';
import { workerCounts } from './useWorkers';
import './workers.css';

const STATUS_ICON: Record<Worker['status'], string> = {
  queued: '…',
  running: '',
  done: '✓',
  error: '✕',
  stopped: '■',
};

export function WorkerStrip(props: {
  workers: Worker[];
  selectedId: string | null;
  onSelect: (id: string) => void;
  /** Owner ids of workers whose call waits for the plan's approval. */
  planWaiting?: readonly string[];
}) {
  if (!props.workers.length) return null;
  return (
    <nav className="worker-strip" aria-label="Workers">
      <span className="worker-counts" role="status">
        {workerCounts(props.workers)}
      </span>
      <div className="worker-chips">
        {props.workers.map((worker) => {
          const held = worker.status === 'running' && !!props.planWaiting?.includes(worker.owner);
          return (
            <button
              key={worker.id}
              type="button"
              className={`worker-chip worker-${worker.status}${props.selectedId === worker.id ? ' selected' : ''}`}
              aria-pressed={props.selectedId === worker.id}
              aria-label={`Worker ${worker.number}, ${held ? 'waiting for plan approval' : worker.status}${worker.needsInput ? ', needs your answer' : ''}: ${worker.description}`}
              title={worker.description}
              onClick={() => props.onSelect(worker.id)}
            >
              <span aria-hidden="true" className="worker-icon">
                {worker.needsInput ? (
                  '⚠'
                ) : held ? (
                  '⏸'
                ) : worker.status === 'running' ? (
                  <span className="spinner small" />
                ) : (
                  STATUS_ICON[worker.status]
                )}
              </span>
              Worker {worker.number}
              {held && <span className="worker-held"> · waiting for plan approval</span>}
            </button>
          );
        })}
      </div>
    </nav>
  );
}
