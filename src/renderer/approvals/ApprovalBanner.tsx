// In the main view: every call waiting for the user, the worker's included, with a way to
// its card (a worker's card lives in the worker's transcript).
import type { Approval } from '../../shared/mcp';
import './approvals.css';

export function ApprovalBanner(props: { approvals: Approval[]; onReview: (approval: Approval) => void }) {
  if (!props.approvals.length) return null;
  return (
    <div className="approval-banner" role="region" aria-label="Waiting for your approval">
      {props.approvals.map((approval) => (
        <div key={approval.id} className="approval-banner-row">
          <span className="approval-banner-icon" aria-hidden="true">
            ⚠
          </span>
          <span>
            {approval.agentLabel} wants to run <code>{approval.toolName}</code>
          </span>
          <button type="button" className="ghost" onClick={() => props.onReview(approval)}>
            Review
          </button>
        </div>
      ))}
    </div>
  );
}
