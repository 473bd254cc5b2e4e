// "Every plan": a change the model made to the approved plan, shown as a diff above the
// task list with Approve changes / Reject changes. Tools that act wait for the answer.
import { useState } from 'react';
import type { PlanAmendment as Amendment } from '../../shared/planContract';
import { describeChange, planDiff } from '../../shared/planText';
import { call, useApi } from '../api/apiContext';
import { useGuard } from '../common/toasts';
import './PlanReviewCard.css';

export function PlanAmendment({
  conversationId,
  amendment,
  approvedRevision,
}: {
  conversationId: string;
  amendment: Amendment;
  /** The approved revision the change is to: the answer carries it with the change as drawn. */
  approvedRevision: number;
}) {
  const api = useApi();
  const guard = useGuard();
  const [sending, setSending] = useState(false);
  const answer = (approve: boolean) => {
    setSending(true);
    void guard(() =>
      call(api, 'plan:answerAmendment', { conversationId, approve, tasks: amendment.after, approvedRevision }),
    ).finally(() => setSending(false));
  };
  return (
    <section className="plan-amendment" aria-label="Proposed change to the plan">
      <h2>The assistant wants to change the approved plan</h2>
      <ul className="plan-diff">
        {planDiff(amendment.before, amendment.after).map((change) => (
          <li key={`${change.kind}-${change.id}`} className={`plan-diff-${change.kind}`}>
            {describeChange(change)}
          </li>
        ))}
      </ul>
      <p>Tools that change things wait until you answer.</p>
      <div className="plan-review-actions">
        <button type="button" disabled={sending} onClick={() => answer(false)}>
          Reject changes
        </button>
        <button type="button" className="primary" disabled={sending} onClick={() => answer(true)}>
          Approve changes
        </button>
      </div>
    </section>
  );
}
