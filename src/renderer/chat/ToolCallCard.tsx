// A collapsible card for one tool call: name, arguments, result; while an MCP call waits
// for the user, the approval buttons; while it runs, the progress it reports.
import type { ToolCallView } from './displayItems';
import { ApprovalPanel, ProgressLine } from '../approvals/ApprovalPanel';
import { useApprovalsContext } from '../approvals/useApprovals';
import { ToolOutputView } from '../mcp/ToolOutputView';
import { useState } from 'react';

const DENIED = 'The user denied this call.';

function resultState(content: string): string {
  if (content.startsWith('cancelled')) return 'cancelled';
  if (content === DENIED) return 'denied';
  if (content.startsWith('Not run')) return 'not run';
  return 'done';
}

function pretty(json: string): string {
  if (!json.trim()) return '{}';
  try {
    return JSON.stringify(JSON.parse(json), null, 2);
  } catch {
    return json;
  }
}

export function ToolCallCard({ view, running }: { view: ToolCallView; running: boolean }) {
  const { call, result } = view;
  const { approvals } = useApprovalsContext();
  const [opened, setOpened] = useState(false);
  if (call.name === 'think') return <ThinkingCard view={view} />;
  const approval = result ? undefined : approvals.find((a) => a.toolCallId === call.id);
  const state = result ? resultState(result.content) : approval ? 'waiting for approval' : running ? 'running' : 'no result';
  return (
    <details
      className={`tool-card tool-${state.split(' ')[0]}`}
      open={approval ? true : undefined}
      onToggle={(event) => setOpened(event.currentTarget.open)}
    >
      {/* The name comes from the visible text (plus words for screen readers only):
          "Tool call <name>, <state>". */}
      <summary>
        <span className="tool-icon" aria-hidden="true">
          {state === 'running' ? <span className="spinner" /> : '⚙'}
        </span>
        <span className="sr-only">Tool call </span>
        <span className="tool-name">{call.name}</span>
        <span className="sr-only">, </span>
        <span className="tool-state">{state}</span>
      </summary>
      <div className="tool-section">
        <div className="tool-label">Arguments</div>
        <pre>{pretty(call.arguments)}</pre>
      </div>
      {approval && <ApprovalPanel approval={approval} />}
      {!result && !approval && <ProgressLine callId={call.id} />}
      {result && (
        <div className="tool-section">
          <div className="tool-label">Result</div>
          <pre>{pretty(result.content)}</pre>
        </div>
      )}
      {opened && result && call.name.startsWith('mcp__') && <ToolOutputView conversationId={result.conversationId} toolCallId={call.id} />}
    </details>
  );
}

function ThinkingCard({ view }: { view: ToolCallView }) {
  let thought = view.call.arguments;
  try {
    thought = String((JSON.parse(view.call.arguments) as { thought?: unknown }).thought ?? thought);
  } catch {
    // Arguments still streaming or not JSON: show them as they are.
  }
  return (
    <details className="tool-card thinking-card">
      <summary aria-label="Thinking">
        <svg className="tool-icon" aria-hidden="true" viewBox="0 0 16 16" width="13" height="13">
          <path
            fill="currentColor"
            d="M8 2C4.7 2 2 4.1 2 6.8c0 1.5.8 2.8 2.1 3.7L3.6 13l2.9-1.6c.5.1 1 .2 1.5.2 3.3 0 6-2.1 6-4.8S11.3 2 8 2z"
          />
        </svg>
        <span className="tool-name">Thinking</span>
      </summary>
      <p className="thought">{thought}</p>
    </details>
  );
}
