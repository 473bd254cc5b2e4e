// The MCP tasks (task-augmented tool calls) running for one task of the list, live from
// `mcp:taskStatus`: shown in the task's ledger until each ends (main tells the end even
// when the server's last status never came: Stop, a timeout).
import { useState } from 'react';
import type { McpTaskStatus } from '../../shared/mcpAppsContract';
import { useEvent } from '../api/apiContext';

export const MCP_TASK_WORDS: Record<McpTaskStatus, string> = {
  working: 'working',
  input_required: 'needs input',
  completed: 'completed',
  failed: 'failed',
  cancelled: 'cancelled',
};

const ENDED: ReadonlySet<McpTaskStatus> = new Set(['completed', 'failed', 'cancelled']);

export interface RunningMcpTask {
  toolCallId: string;
  toolName: string;
  words: string;
  message: string | null;
}

export function useRunningMcpTasks(conversationId: string, listId: number, taskId: number): RunningMcpTask[] {
  const [running, setRunning] = useState<RunningMcpTask[]>([]);
  useEvent(
    'mcp:taskStatus',
    (event) => {
      const owner = event.ledgerTask;
      if (!owner || owner.conversationId !== conversationId || owner.listId !== listId || owner.taskId !== taskId)
        return;
      const key = `${event.conversationId}\n${event.toolCallId}`;
      setRunning((current) => {
        const others = current.filter((entry) => entry.toolCallId !== key);
        if (ENDED.has(event.status)) return others;
        const entry = {
          toolCallId: key,
          toolName: event.toolName,
          words: MCP_TASK_WORDS[event.status],
          message: event.message,
        };
        const at = current.findIndex((e) => e.toolCallId === key);
        return at < 0 ? [...current, entry] : current.map((e, i) => (i === at ? entry : e));
      });
    },
    [conversationId, listId, taskId],
  );
  return running;
}
