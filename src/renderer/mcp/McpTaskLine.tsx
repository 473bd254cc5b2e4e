// The status of a tool call that runs as an MCP task, on its step while it runs: "Task
// working: Gathering sources…", "Task needs input", as the server reports it.
import { useState } from 'react';
import type { McpTaskStatus } from '../../shared/mcpAppsContract';
import { useEvent } from '../api/apiContext';
import { MCP_TASK_WORDS } from '../tasks/useRunningMcpTasks';

export function McpTaskLine({ callId }: { callId: string }) {
  const [task, setTask] = useState<{ status: McpTaskStatus; message: string | null } | null>(null);
  useEvent(
    'mcp:taskStatus',
    (event) => {
      if (event.toolCallId === callId) setTask({ status: event.status, message: event.message });
    },
    [callId],
  );
  if (!task) return null;
  return (
    <div className="tool-progress" role="status" aria-label="Task status">
      <span>
        Task {MCP_TASK_WORDS[task.status]}
        {task.message ? `: ${task.message}` : ''}
      </span>
    </div>
  );
}
