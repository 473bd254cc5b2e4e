// The task header as a review card (plan review): the plan the model proposed, editable as
// in the header (rename, add, delete, reorder), with a comment per task and one general
// comment, and Approve / Approve and run on Autopilot / Request changes.
import { useState } from 'react';
import type { PlanComments, PlanState } from '../../shared/planContract';
import type { TaskList } from '../../shared/tasks';
import { call, useApi } from '../api/apiContext';
import { useGuard } from '../common/toasts';
import { TaskRows } from '../tasks/TaskRows';
import { HeldCalls } from './HeldCalls';
import './PlanReviewCard.css';

export function PlanReviewCard(props: {
  conversationId: string;
  list: TaskList;
  plan: PlanState;
  onJumpToMessage: (id: number, transcriptId?: string) => void;
}) {
  const { conversationId, list, plan } = props;
  const api = useApi();
  const guard = useGuard();
  const [comments, setComments] = useState<Record<number, string>>({});
  const [editing, setEditing] = useState<number | null>(null);
  const [general, setGeneral] = useState('');
  const [adding, setAdding] = useState(false);
  const [sending, setSending] = useState(false);

  // Comments on tasks deleted meanwhile are dropped: they would point at nothing.
  const reviewed = (): { tasks: { id: number; title: string }[]; comments: PlanComments } => ({
    tasks: list.tasks.map((t) => ({ id: t.id, title: t.title })),
    comments: {
      general: general.trim(),
      tasks: list.tasks.flatMap((t) => (comments[t.id]?.trim() ? [{ taskId: t.id, text: comments[t.id].trim() }] : [])),
    },
  });
  const send = (action: 'approve' | 'autopilot' | 'changes') => {
    setSending(true);
    const body = { conversationId, ...reviewed() };
    void guard(() =>
      action === 'changes'
        ? call(api, 'plan:requestChanges', body)
        : call(api, 'plan:approve', { ...body, autopilot: action === 'autopilot' }),
    ).then((done) => {
      setSending(false);
      if (done) {
        setComments({});
        setGeneral('');
      }
    });
  };

  return (
    <section className="task-header expanded plan-review-card" aria-label="Review the plan">
      <div className="plan-review-head">
        <h2>Review the plan</h2>
        <span className="plan-review-revision">revision {plan.revision}</span>
        <p>Edit the tasks and comment on them. Tools that change things run only after you approve.</p>
      </div>
      <div className="plan-review-body">
        <TaskRows
          conversationId={conversationId}
          list={list}
          // Nothing runs while the plan waits: an in-progress row is still, not spinning.
          runStateOf={() => 'waiting for you'}
          onJump={props.onJumpToMessage}
          adding={adding}
          onAddDone={() => setAdding(false)}
          extra={(task, i) =>
            editing === task.id ? (
              <textarea
                autoFocus
                className="plan-comment-input"
                aria-label={`Comment on task ${i + 1}`}
                maxLength={4000}
                value={comments[task.id] ?? ''}
                onChange={(e) => setComments((all) => ({ ...all, [task.id]: e.target.value }))}
                onBlur={() => setEditing(null)}
                onKeyDown={(e) => {
                  if (e.key === 'Escape' || (e.key === 'Enter' && !e.shiftKey)) {
                    e.preventDefault();
                    e.stopPropagation();
                    setEditing(null);
                  }
                }}
              />
            ) : comments[task.id]?.trim() ? (
              <button
                type="button"
                className="plan-comment"
                aria-label={`Edit comment on task ${i + 1}`}
                onClick={() => setEditing(task.id)}
              >
                {comments[task.id]}
              </button>
            ) : (
              <button
                type="button"
                className="plan-comment-add"
                aria-label={`Comment on task ${i + 1}`}
                onClick={() => setEditing(task.id)}
              >
                Comment
              </button>
            )
          }
        />
        <HeldCalls calls={plan.calls.filter((c) => c.state !== 'waiting_for_change')} />
      </div>
      <div className="plan-review-foot">
        <textarea
          className="plan-general-comment"
          aria-label="Comment on the plan"
          placeholder="Comment on the plan (optional)"
          rows={1}
          maxLength={8000}
          value={general}
          onChange={(e) => setGeneral(e.target.value)}
        />
        <div className="plan-review-actions">
          <button type="button" className="plan-add-task" onClick={() => setAdding(true)}>
            Add task
          </button>
          <button type="button" disabled={sending} onClick={() => send('changes')}>
            Request changes
          </button>
          <button type="button" disabled={sending} onClick={() => send('autopilot')}>
            Approve and run on Autopilot
          </button>
          <button type="button" className="primary" disabled={sending} onClick={() => send('approve')}>
            Approve
          </button>
        </div>
      </div>
    </section>
  );
}
