// A task row's ledger: "N tool calls" (the calls its agent made while the task was in
// progress); clicking lists them, and each call jumps to its card in the transcript.
import { useEffect, useId, useState } from 'react';
import { revealBidiControls } from '../../shared/bidi';
import { toolCallCountLabel, type LedgerCall } from '../../shared/ledger';
import { call, useApi } from '../api/apiContext';
import { useToolCallCount } from './ledgerCounts';
import { useRunningMcpTasks } from './useRunningMcpTasks';
import './TaskLedger.css';

const OUTCOME_LABEL: Record<LedgerCall['outcome'], string> = {
  ok: 'ok',
  error: 'error',
  denied: 'denied',
  cancelled: 'cancelled',
  held: 'held for plan review',
};

function clock(ms: number): string {
  return new Date(ms).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' });
}

export function TaskLedger(props: {
  conversationId: string;
  listId: number;
  taskId: number;
  /** The task's number as its row shows it. */
  number: number;
  onJump: (messageId: number, transcriptId: string) => void;
}) {
  const { conversationId, listId, taskId } = props;
  const api = useApi();
  const count = useToolCallCount(conversationId, listId, taskId);
  const [open, setOpen] = useState(false);
  const [calls, setCalls] = useState<LedgerCall[] | null>(null);
  const listDomId = useId();
  const mcpTasks = useRunningMcpTasks(conversationId, listId, taskId);

  useEffect(() => {
    if (!open) return;
    let live = true;
    call(api, 'ledger:calls', { conversationId, taskId }).then(
      (result) => live && setCalls(result.calls),
      () => live && setCalls([]),
    );
    return () => {
      live = false;
    };
  }, [api, open, conversationId, listId, taskId, count]);

  if (count === 0 && !mcpTasks.length) return null;
  return (
    <div className="task-ledger">
      {mcpTasks.length > 0 && (
        <ul className="task-ledger-mcp" role="status" aria-label={`MCP tasks of task ${props.number}`}>
          {mcpTasks.map((entry) => (
            <li key={entry.toolCallId}>
              <span className="task-ledger-name">{revealBidiControls(entry.toolName)}</span>: {entry.words}
              {entry.message ? ` — ${revealBidiControls(entry.message)}` : ''}
            </li>
          ))}
        </ul>
      )}
      {count > 0 && (
        <button
          type="button"
          className="task-ledger-toggle"
          aria-expanded={open}
          aria-controls={open ? listDomId : undefined}
          onClick={() => setOpen(!open)}
        >
          {toolCallCountLabel(count)}
        </button>
      )}
      {open && (
        <ol id={listDomId} className="task-ledger-calls" aria-label={`Tool calls of task ${props.number}`}>
          {(calls ?? []).map((entry) => (
            <li key={entry.id}>
              <button
                type="button"
                className="task-ledger-call"
                disabled={entry.messageId === null}
                title={entry.messageId === null ? 'This part of the transcript was removed' : 'Show in the transcript'}
                onClick={() => {
                  if (entry.messageId !== null) props.onJump(entry.messageId, entry.transcriptId);
                }}
              >
                <span className="task-ledger-name">{revealBidiControls(entry.name)}</span>
                <span className={`task-ledger-outcome outcome-${entry.outcome}`}>{OUTCOME_LABEL[entry.outcome]}</span>
                {entry.agentId !== 'main' && <span className="task-ledger-agent">{entry.agentId}</span>}
                <time dateTime={new Date(entry.startedAt).toISOString()}>{clock(entry.startedAt)}</time>
              </button>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
