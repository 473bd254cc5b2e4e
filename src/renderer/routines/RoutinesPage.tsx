// Routines: every routine with its schedule, next run, last run and its outcome, and per
// row Run now, Pause / Resume, Edit and Delete. "New routine" opens the form.
import { useState } from 'react';
import type { Routine, RunStatus } from '../../shared/routinesContract';
import { call, useApi } from '../api/apiContext';
import { followedCall, useQuery } from '../query/useQuery';
import { useGuard, useToast } from '../common/toasts';
import { ConfirmDialog } from '../common/ConfirmDialog';
import { deliverExport } from '../common/download';
import { MenuButton } from '../common/Menu';
import { pickJsonFileText } from '../common/pickFile';
import { RoutineForm } from './RoutineForm';
import './routines.css';

export const OUTCOME_LABELS: Record<RunStatus, string> = {
  queued: 'queued',
  running: 'running',
  completed: 'completed',
  waiting: 'waiting for you',
  failed: 'failed',
  stopped: 'stopped',
  interrupted: 'interrupted',
  missed: 'missed',
  skipped: 'skipped',
};

const when = (at: number | null) =>
  at === null ? '—' : new Date(at).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export function RoutinesPage() {
  const api = useApi();
  const guard = useGuard();
  const toast = useToast();
  const [routines] = useQuery(
    followedCall({ call: 'routines:list', params: {}, event: 'routines:changed', pick: (e) => e.routines }),
    null as Routine[] | null,
  );
  const [editing, setEditing] = useState<Routine | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Routine | null>(null);

  if (editing) {
    return (
      <section className="routines-page" aria-label="Routines">
        <RoutineForm routine={editing === 'new' ? null : editing} onDone={() => setEditing(null)} />
      </section>
    );
  }

  const exportAs = (format: 'md' | 'json') =>
    void guard(async () => deliverExport(await call(api, 'routines:export', { format }), toast));
  const importFile = () =>
    void guard(async () => {
      const text = await pickJsonFileText('Routines file to import');
      if (text === null) return;
      const { imported } = await call(api, 'routines:import', { text });
      toast(`Imported ${imported} routine${imported === 1 ? '' : 's'}, paused: resume each when it should run.`);
    });
  const runNow = (routine: Routine) =>
    void guard(async () => {
      await call(api, 'routines:runNow', { id: routine.id });
      toast(`A run of “${routine.name}” started. Activity says when it ends.`);
    });
  const remove = (routine: Routine) =>
    void guard(async () => {
      setDeleting(null);
      await call(api, 'routines:delete', { id: routine.id });
    });

  return (
    <section className="routines-page" aria-label="Routines">
      <header className="routines-header">
        <h1>Routines</h1>
        <MenuButton
          label="Export routines"
          items={[
            { label: 'Export as Markdown', onSelect: () => exportAs('md') },
            { label: 'Export as JSON', onSelect: () => exportAs('json') },
          ]}
        >
          Export
        </MenuButton>
        <button type="button" className="ghost" onClick={importFile}>
          Import routines…
        </button>
        <button type="button" className="primary" onClick={() => setEditing('new')}>
          New routine
        </button>
      </header>
      {routines && routines.length === 0 && (
        <p className="routines-empty">
          No routines yet. A routine starts a conversation on a schedule and works through its task list on its own.
        </p>
      )}
      <ul className="routine-list" aria-label="Routines list">
        {routines?.map((routine) => (
          <li key={routine.id} className="routine-row" aria-label={routine.name}>
            <div className="routine-main">
              <span className="routine-name">{routine.name}</span>
              <span className="routine-schedule">
                {routine.scheduleText}
                {routine.paused && ' · paused'}
              </span>
              <span className="routine-times">
                Next run: {routine.paused ? 'paused' : when(routine.nextRunAt)} · Last run: {when(routine.lastRunAt)}
                {routine.lastOutcome && ` (${OUTCOME_LABELS[routine.lastOutcome]})`}
              </span>
              {routine.lastDetail && routine.lastOutcome !== 'completed' && (
                <span className="routine-detail">{routine.lastDetail}</span>
              )}
            </div>
            <div className="routine-actions">
              <button type="button" onClick={() => runNow(routine)}>
                Run now
              </button>
              <button
                type="button"
                onClick={() =>
                  void guard(() => call(api, 'routines:setPaused', { id: routine.id, paused: !routine.paused }))
                }
              >
                {routine.paused ? 'Resume' : 'Pause'}
              </button>
              <button type="button" onClick={() => setEditing(routine)}>
                Edit
              </button>
              <button type="button" className="danger" onClick={() => setDeleting(routine)}>
                Delete
              </button>
            </div>
          </li>
        ))}
      </ul>
      {deleting && (
        <ConfirmDialog
          title="Delete routine"
          confirmLabel="Delete routine"
          danger
          onConfirm={() => remove(deleting)}
          onCancel={() => setDeleting(null)}
        >
          <p>Delete “{deleting.name}”? A run that is going now stops. Its past runs stay as conversations.</p>
        </ConfirmDialog>
      )}
    </section>
  );
}
