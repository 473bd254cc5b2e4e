// A tool that requires task execution (MCP Tasks, protocol 2025-11-25) is called as a task
// through the SDK's experimental client: the server answers with a task at once, the SDK
// polls its status until it ends, then fetches the result. Each status reaches the step;
// Stop sends tasks/cancel for the task, so the server stops its work too.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { McpTaskStatus } from '../../../shared/mcpAppsContract';

export interface TaskCallOptions {
  signal: AbortSignal;
  timeoutMs: number;
  onProgress?: (progress: { progress: number; total?: number; message?: string }) => void;
  onTask?: (status: { taskId: string; status: McpTaskStatus; message: string | null }) => void;
}

/** Whether a listed tool must run as a task, and whether this server lets it (else it is not offered). */
export function taskProblem(client: Client, tool: { execution?: { taskSupport?: string } }): string | null {
  if (tool.execution?.taskSupport !== 'required') return null;
  const capabilities = client.getServerCapabilities() as { tasks?: { requests?: { tools?: { call?: object } } } };
  return capabilities?.tasks?.requests?.tools?.call
    ? null
    : 'it can only run as an MCP task, and its server does not offer tasks for tool calls';
}

export async function callToolAsTask(
  client: Client,
  name: string,
  args: Record<string, unknown>,
  resultSchema: Parameters<Client['experimental']['tasks']['callToolStream']>[1],
  options: TaskCallOptions,
): Promise<CallToolResult> {
  let taskId: string | null = null;
  const cancel = () => {
    if (taskId) void client.experimental.tasks.cancelTask(taskId, { timeout: 5000 }).catch(() => undefined);
  };
  options.signal.addEventListener('abort', cancel, { once: true });
  try {
    const stream = client.experimental.tasks.callToolStream({ name, arguments: args }, resultSchema, {
      signal: options.signal,
      timeout: options.timeoutMs,
      onprogress: options.onProgress,
      task: {},
    });
    for await (const message of stream) {
      if (message.type === 'taskCreated' || message.type === 'taskStatus') {
        taskId = message.task.taskId;
        options.onTask?.({
          taskId,
          status: message.task.status,
          message: message.task.statusMessage ?? null,
        });
      } else if (message.type === 'result') {
        return message.result as CallToolResult;
      } else if (message.type === 'error') {
        throw message.error;
      }
    }
    throw new Error(`The task for tool ${name} ended without a result.`);
  } finally {
    options.signal.removeEventListener('abort', cancel);
    if (options.signal.aborted) cancel();
  }
}
