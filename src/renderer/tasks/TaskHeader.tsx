// The sticky, collapsible task header above the messages. It updates from
// `tasks:changed` events only (no polling), and lets the user edit the list.
import { lazy, Suspense, useEffect, useState } from 'react';
import type { TaskList } from '../../shared/tasks';
import { currentTask, progressOf } from '../../shared/taskProgress';
import { call, useApi } from '../api/apiContext';
import { useGuard, useToast } from '../common/toasts';
import { MenuButton } from '../common/Menu';
import { useTaskList } from './useTaskList';
import { TaskRows } from './TaskRows';
import { ContinueBanner, offersContinue } from './ContinueBanner';
import type { ContinuityKind } from '../../shared/continuityContract';
import type { RunState } from './runState';
import { revealBidiControls } from '../../shared/bidi';
import { PlanReviewCard } from '../plans/PlanReviewCard';
import { PlanAmendment } from '../plans/PlanAmendment';
import type { PlanState } from '../../shared/planContract';
import { useStableHandler } from '../common/useLatest';
import './TaskHeader.css';

// Loaded when first opened, as App's "Export all" does: until both import it lazily, the
// dialog (and the export options it shows) stays in the bundle of the first paint.
const ExportTasksDialog = lazy(() => import('./ExportTasksDialog').then((m) => ({ default: m.ExportTasksDialog })));

export const STORAGE_PREFIX = 'stepwise.tasks.expanded.';

function storedChoice(conversationId: string): boolean | null {
  const value = localStorage.getItem(STORAGE_PREFIX + conversationId);
  return value === null ? null : value === '1';
}

export function TaskHeader(props: {
  conversationId: string;
  running: boolean;
  /** Plan review's state of the conversation (null until read). */
  plan: PlanState | null;
  /** Something other than a wait for the user runs: the review card waits for it. */
  reviewBusy: boolean;
  /** Whether a task's owner runs now (null) or why not. */
  runStateOf: (owner: string) => RunState;
  onJumpToMessage: (id: number, transcriptId?: string) => void;
  /** Whether the agents were left mid-list (useContinuity). */
  continuity: ContinuityKind | null;
  /** Told whether "Continue remaining tasks" is offered: then it is the one recovery action. */
  onContinueOffered?: (offered: boolean) => void;
}) {
  const { list } = useTaskList(props.conversationId);
  const { plan } = props;
  if (!list || list.tasks.length === 0) return null;
  if (plan?.reviewing && !props.reviewBusy) return <PlanReviewCard {...props} list={list} plan={plan} />;
  const amendment = plan?.amendment && plan.approved && (
    <PlanAmendment
      conversationId={props.conversationId}
      amendment={plan.amendment}
      approvedRevision={plan.approved.revision}
    />
  );
  return (
    <>
      {amendment}
      <TaskPanel {...props} list={list} />
    </>
  );
}

function TaskPanel(props: {
  conversationId: string;
  running: boolean;
  runStateOf: (owner: string) => RunState;
  list: TaskList;
  onJumpToMessage: (id: number, transcriptId?: string) => void;
  continuity: ContinuityKind | null;
  onContinueOffered?: (offered: boolean) => void;
}) {
  const { list, conversationId, onContinueOffered } = props;
  const offered = offersContinue(props.continuity, list, props.running);
  useEffect(() => {
    onContinueOffered?.(offered);
    return () => onContinueOffered?.(false);
  }, [offered, onContinueOffered]);
  const api = useApi();
  const guard = useGuard();
  const toast = useToast();
  // The user's own choice wins; without one the header folds away while work runs.
  const [choice, setChoice] = useState<boolean | null>(() => storedChoice(conversationId));
  const [adding, setAdding] = useState(false);
  const [exporting, setExporting] = useState(false);
  const { done, total } = progressOf(list.tasks);
  const allDone = total > 0 && done === total;
  const expanded = choice ?? (!props.running && !allDone);
  const current = currentTask(list);
  // Stable across the conversation's re-renders, so unchanged rows skip rendering.
  const onJump = useStableHandler(props.onJumpToMessage);
  // While the banner says Stopped, Paused or Interrupted, the current task does not say it again.
  const currentState = current && !offered ? props.runStateOf(current.owner) : null;
  const still = !props.running && offered;

  useEffect(() => {
    if (choice === null) localStorage.removeItem(STORAGE_PREFIX + conversationId);
    else localStorage.setItem(STORAGE_PREFIX + conversationId, choice ? '1' : '0');
  }, [choice, conversationId]);

  const toggle = () => setChoice(!expanded);
  const summary = allDone && !props.running ? `All ${total} tasks completed` : `Tasks ${done}/${total}`;

  return (
    <section className={`task-header ${expanded ? 'expanded' : 'collapsed'}`} aria-label="Tasks">
      <div className="task-summary">
        <button
          type="button"
          className="task-toggle"
          aria-expanded={expanded}
          aria-label={expanded ? 'Collapse task list' : 'Expand task list'}
          onClick={toggle}
        >
          <span className="chevron" aria-hidden="true">
            ▸
          </span>
        </button>
        <div className="task-summary-text" onClick={toggle}>
          <span className={allDone ? 'task-count done' : 'task-count'}>{summary}</span>
          {!allDone && current && (
            <span className="task-current" title={current.title}>
              {currentState === null && !still ? (
                <span className="spinner small" aria-hidden="true" />
              ) : (
                <span className="task-still small" aria-hidden="true" />
              )}
              {revealBidiControls(
                still
                  ? current.title
                  : currentState === null
                    ? current.activeForm || current.title
                    : `${current.title} — ${currentState}`,
              )}
            </span>
          )}
        </div>
        <MenuButton
          label="Task list actions"
          className="task-menu"
          items={[
            { label: 'Add task', onSelect: () => setAdding(true) },
            { label: 'Export tasks…', onSelect: () => setExporting(true) },
            {
              label: 'Copy as Markdown',
              onSelect: () =>
                void guard(async () => {
                  const { text } = await call(api, 'export:tasksText', { conversationId, format: 'md', scope: 'open' });
                  await navigator.clipboard.writeText(text);
                  toast('Task list copied as Markdown');
                }),
            },
            {
              label: 'Clear tasks',
              danger: true,
              onSelect: () => void guard(() => call(api, 'tasks:clear', { conversationId })),
            },
          ]}
        >
          ⋯
        </MenuButton>
      </div>
      <ContinueBanner conversationId={conversationId} list={list} running={props.running} kind={props.continuity} />
      <div
        className="task-progress"
        role="progressbar"
        aria-label="Task progress"
        aria-valuemin={0}
        aria-valuemax={total}
        aria-valuenow={done}
      >
        <div className="task-progress-fill" style={{ transform: `scaleX(${total ? done / total : 0})` }} />
      </div>
      {expanded && (
        <TaskRows
          conversationId={conversationId}
          list={list}
          runStateOf={(task) => (task.status === 'in_progress' ? props.runStateOf(task.owner) : null)}
          onJump={onJump}
          adding={adding}
          onAddDone={() => setAdding(false)}
        />
      )}
      <Suspense>
        {exporting && <ExportTasksDialog conversationId={conversationId} onClose={() => setExporting(false)} />}
      </Suspense>
    </section>
  );
}
