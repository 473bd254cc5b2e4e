// Inside a tool card, the one place an approval is answered: one line saying what wants to
// run, the arguments one click away, and the user's three answers.
import { useRef } from 'react';
import type { Approval } from '../../shared/mcp';
import { useApprovalsContext } from './useApprovals';
import { useCardVisibility } from './cardVisibility';
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
  const ref = useRef<HTMLDivElement>(null);
  useCardVisibility(approval.toolCallId, ref);
  return (
    <div
      ref={ref}
      className="approval-panel"
      role="group"
      aria-label={`Approve ${approval.toolName}`}
      data-approval-call={approval.toolCallId}
    >
      <p className="approval-what">
        {approval.agentLabel} wants to run <code>{approval.tool}</code> on the MCP server{' '}
        <strong>{approval.server}</strong>
        {approval.arguments === '{}' ? ' (no arguments).' : '.'}
      </p>
      {approval.arguments !== '{}' && (
        <details className="approval-arguments-toggle">
          <summary>Arguments</summary>
          <pre className="approval-arguments">{pretty(approval.arguments)}</pre>
        </details>
      )}
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
