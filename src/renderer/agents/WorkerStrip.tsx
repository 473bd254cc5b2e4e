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

export function WorkerStrip(props: { workers: Worker[]; selectedId: string | null; onSelect: (id: string) => void }) {
  if (!props.workers.length) return null;
  return (
    <nav className="worker-strip" aria-label="Workers">
      <span className="worker-counts" role="status">
        {workerCounts(props.workers)}
      </span>
      <div className="worker-chips">
        {props.workers.map((worker) => (
          <button
            key={worker.id}
            type="button"
            className={`worker-chip worker-${worker.status}${props.selectedId === worker.id ? ' selected' : ''}`}
            aria-pressed={props.selectedId === worker.id}
            aria-label={`Worker ${worker.number}, ${worker.status}${worker.needsInput ? ', needs your answer' : ''}: ${worker.description}`}
            title={worker.description}
            onClick={() => props.onSelect(worker.id)}
          >
            <span aria-hidden="true" className="worker-icon">
              {worker.needsInput ? (
                '⚠'
              ) : worker.status === 'running' ? (
                <span className="spinner small" />
              ) : (
                STATUS_ICON[worker.status]
              )}
            </span>
            Worker {worker.number}
          </button>
        ))}
      </div>
    </nav>
  );
}
