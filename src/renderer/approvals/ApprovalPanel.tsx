// Inside a tool card: what wants to run, and the user's three answers.
import type { Approval } from '../../shared/mcp';
import { useApprovalsContext } from './useApprovals';
import './approvals.css';

function pretty(json: string): string {
  try {
    return JSON.stringify(JSON.parse(json), null, 2);
  } catch {
    return json;
  }
}

export function ApprovalPanel({ approval }: { approval: Approval }) {
  const { answer } = useApprovalsContext();
  return (
    <div className="approval-panel" role="group" aria-label={`Approve ${approval.toolName}`}>
      <p className="approval-what">
        {approval.agentLabel} wants to run <code>{approval.tool}</code> on the MCP server{' '}
        <strong>{approval.server}</strong>
        {approval.arguments === '{}' ? ' (no arguments).' : ' with:'}
      </p>
      {approval.arguments !== '{}' && <pre className="approval-arguments">{pretty(approval.arguments)}</pre>}
      <div className="approval-actions">
        <button type="button" className="primary" onClick={() => answer(approval.id, 'once')}>
          Allow once
        </button>
        <button
          type="button"
          title={`Always run ${approval.tool} of ${approval.server} without asking`}
          onClick={() => answer(approval.id, 'always')}
        >
          Always allow
        </button>
        <button type="button" className="danger" onClick={() => answer(approval.id, 'deny')}>
          Deny
        </button>
      </div>
    </div>
  );
}

/** "step 2 · 2/4" while a tool reports progress. */
export function ProgressLine({ callId }: { callId: string }) {
  const { progress } = useApprovalsContext();
  const update = progress.get(callId);
  if (!update) return null;
  const fraction = update.total ? `${update.progress}/${update.total}` : String(update.progress);
  return (
    <div className="tool-progress" role="status">
      {update.total ? <progress value={update.progress} max={update.total} aria-label="Tool progress" /> : null}
      <span>{update.message ? `${update.message} · ${fraction}` : fraction}</span>
    </div>
  );
}
