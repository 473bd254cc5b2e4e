// A tool call in the transcript: one line with an icon ("Updated tasks · 2/5 done",
// "Started worker 2 · …", "Thought for a moment", or the tool's name and state) that opens
// to its arguments and result. Those are formatted only once the card is opened: a long
// transcript has hundreds of closed cards.
import { lazy, Suspense, useState, type ReactNode } from 'react';
import type { ToolCallView } from './toolSummary';
import { QuestionExchange } from '../questions/QuestionExchange';
import { CardIcon } from './CardIcon';
import { resultOutcome, summarize } from './toolSummary';
import { revealBidiControls } from '../../shared/bidi';
import './toolCards.css';
import { ApprovalPanel, ProgressLine } from '../approvals/ApprovalPanel';
import { useApprovalsContext } from '../approvals/useApprovals';
import { ToolOutputView } from '../mcp/ToolOutputView';
import { McpStepSignIn } from '../mcp/McpStepSignIn';
import { McpTaskLine } from '../mcp/McpTaskLine';
import { usePlanCalls, waitingState } from '../plans/planCalls';

// Few tools have an app: its view (and its frame's styles) loads with the first one shown.
const McpAppView = lazy(() => import('../mcp/McpAppView').then((m) => ({ default: m.McpAppView })));

/** The card's words for each recorded outcome. */
const RESULT_STATE = {
  ok: 'done',
  error: 'failed',
  denied: 'denied',
  cancelled: 'cancelled',
  not_run: 'not run',
  // Plan review kept it from running: not a failure, nothing red.
  held: 'Held for plan review',
} as const;

function pretty(json: string): string {
  if (!json.trim()) return '{}';
  try {
    return JSON.stringify(JSON.parse(json), null, 2);
  } catch {
    return json;
  }
}

/** A `<details>` whose body is rendered only while it is open. */
export function LazyDetails(props: { className: string; summary: ReactNode; children: () => ReactNode }) {
  const [open, setOpen] = useState(false);
  return (
    <details className={props.className} onToggle={(e) => setOpen(e.currentTarget.open)}>
      {props.summary}
      {open && props.children()}
    </details>
  );
}

export function ToolCallCard({
  view,
  running,
  agentName,
}: {
  view: ToolCallView;
  running: boolean;
  agentName: string;
}) {
  const { call, result } = view;
  const { approvals } = useApprovalsContext();
  const planCalls = usePlanCalls();
  if (call.name === 'ask_user') return <QuestionExchange view={view} asker={agentName} running={running} />;
  // An MCP call waiting for the user shows its approval under the card.
  const approval = result ? undefined : approvals.find((a) => a.toolCallId === call.id);
  const waiting = result || approval ? null : waitingState(planCalls, call.id);
  const state = result
    ? RESULT_STATE[resultOutcome(result)]
    : approval
      ? 'waiting for approval'
      : (waiting ?? (running ? 'running' : 'no result'));
  const { icon, label } = summarize(view, !!view.planned);
  const quiet = label !== null;
  const icons = state === 'running' ? <span className="spinner" /> : <CardIcon name={icon} />;
  return (
    <>
      <LazyDetails
        className={`tool-card tool-${state.split(' ')[0].toLowerCase()}${quiet ? ' quiet-card' : ''}`}
        summary={
          quiet ? (
            // The accessible name is the visible line, plus the state when it is not plain "done".
            <summary>
              <span className="tool-icon" aria-hidden="true">
                {icons}
              </span>
              <span className="card-label">{revealBidiControls(label)}</span>
              {state !== 'done' && (
                <>
                  <span className="sr-only">, </span>
                  <span className="tool-state">{state}</span>
                </>
              )}
            </summary>
          ) : (
            // "Tool call <name>, <state>" (partly screen-reader-only).
            <summary>
              <span className="tool-icon" aria-hidden="true">
                {icons}
              </span>
              <span className="sr-only">Tool call </span>
              <span className="tool-name">{revealBidiControls(call.name)}</span>
              <span className="sr-only">, </span>
              <span className="tool-state">{state}</span>
            </summary>
          )
        }
      >
        {() =>
          call.name === 'think' ? (
            <p className="thought">{revealBidiControls(thoughtOf(call.arguments))}</p>
          ) : (
            <>
              <div className="tool-section">
                <div className="tool-label">Arguments</div>
                <pre>{revealBidiControls(pretty(call.arguments))}</pre>
              </div>
              {result && (
                <div className="tool-section">
                  <div className="tool-label">Result</div>
                  <pre>{revealBidiControls(pretty(result.content))}</pre>
                </div>
              )}
              {result && call.name.startsWith('mcp__') && (
                <ToolOutputView conversationId={result.conversationId} toolCallId={call.id} />
              )}
            </>
          )
        }
      </LazyDetails>
      {result && call.name.startsWith('mcp__') && (
        <Suspense fallback={null}>
          <McpAppView
            conversationId={result.conversationId}
            toolCallId={call.id}
            toolName={call.name}
            arguments={call.arguments}
            resultText={result.content}
            isError={resultOutcome(result) === 'error'}
          />
        </Suspense>
      )}
      {result && call.name.startsWith('mcp__') && state === 'failed' && (
        <McpStepSignIn conversationId={result.conversationId} toolCallId={call.id} />
      )}
      {approval && <ApprovalPanel approval={approval} />}
      {state === 'running' && <ProgressLine callId={call.id} />}
      {state === 'running' && call.name.startsWith('mcp__') && <McpTaskLine callId={call.id} />}
    </>
  );
}

function thoughtOf(args: string): string {
  try {
    return String((JSON.parse(args) as { thought?: unknown }).thought ?? args);
  } catch {
    return args; // still streaming or not JSON: show it as it is
  }
}
