// An MCP tool as a tool of the registry: the same path as every other tool (so the task
// ledger sees it), behind the user's approval, with a timeout, progress and Stop.
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { ToolProgress } from '../../../shared/mcp';
import type { mcpAppsEvents } from '../../../shared/mcpAppsContract';
import { DENIED, type Approvals } from '../approvals/approvalsModule';
import { CANCELLED_BY_USER, CANCELLED_WHILE_RUNNING } from '../tools/toolRegistry';
import { defineTool, toolResult, type ToolContext, type ToolDefinition, type ToolResult } from '../tools/toolTypes';
import { appOnly } from './mcpApps';
import { mcpFailureKind } from './mcpConnection';
import { convertResult, type ConvertedResult } from './mcpResults';
import { message, signInMessage, type McpServer } from './mcpServer';
import { signInNeededIn } from './mcpOAuth';
import { redactSecrets } from './mcpView';

type McpTaskStatusEvent = Omit<z.infer<(typeof mcpAppsEvents)['mcp:taskStatus']>, 'ledgerTask'>;
type TaskState = { taskId: string; status: McpTaskStatusEvent['status']; message: string | null };
const TASK_ENDED = new Set(['completed', 'failed', 'cancelled']);

export interface McpToolDeps {
  approvals: Approvals;
  /** The global "auto-allow read-only tools" setting. */
  autoAllowReadOnly(): boolean;
  /** Writes `alwaysAllow` for this tool of this server. */
  alwaysAllow(server: string, tool: string): void;
  progress(progress: ToolProgress): void;
  /** A call running as an MCP task changed status (shown on its step). */
  taskStatus?(status: McpTaskStatusEvent): void;
  /** The call's images and attachments, for its card. */
  output(ctx: ToolContext, result: ConvertedResult): void;
  /** The call was refused until the user signs in to the server (its step offers Sign in). */
  signInNeeded?(ctx: ToolContext, server: string): void;
  /** The raw result, for the app of the call's step (MCP Apps). */
  raw?(ctx: ToolContext, server: string, tool: Tool, result: CallToolResult): void;
  /** The call a server's `roots/list` and elicitations are for. */
  usedBy(server: string, ctx: ToolContext): void;
}

/** Whether this call may run without asking, by the user's own rules. */
function preApproved(server: McpServer, tool: Tool, deps: McpToolDeps): boolean {
  const { config } = server;
  if (config.trusted || config.alwaysAllow.includes(tool.name)) return true;
  return tool.annotations?.readOnlyHint === true && deps.autoAllowReadOnly();
}

function failure(server: string, tool: string, error: unknown, timeoutMs: number): ToolResult {
  const kind = mcpFailureKind(error);
  if (kind === 'timeout') {
    return toolResult(
      'error',
      `Tool ${tool} on MCP server "${server}" did not answer within ${Math.round(timeoutMs / 1000)} s, so the call was abandoned. Try a smaller request, or ask the user to raise the server's timeout.`,
    );
  }
  if (kind === 'tooLarge') {
    const size = /is ([\d.]+ MB)/.exec(message(error))?.[1] ?? 'more than 10 MB';
    return toolResult(
      'error',
      `Tool ${tool} on MCP server "${server}" returned a result of ${size}, over the 10 MB Stepwise reads from a server, so it was not read. ` +
        'The server is still running. Ask it for less at a time (a narrower query, a range or a page).',
    );
  }
  if (kind === 'closed') {
    return toolResult(
      'error',
      `The MCP server "${server}" stopped while running ${tool} (it crashed or exited). The call may not have finished; Stepwise restarts the server on the next call.`,
    );
  }
  return toolResult('error', `Tool ${tool} on MCP server "${server}" failed: ${message(error)}`);
}

async function runTool(
  server: McpServer,
  tool: Tool,
  modelName: string,
  args: Record<string, unknown>,
  ctx: ToolContext,
  deps: McpToolDeps,
) {
  const serverName = server.config.name;
  if (!preApproved(server, tool, deps)) {
    const answer = await deps.approvals.request(
      {
        conversationId: ctx.conversationId,
        transcriptId: ctx.transcriptId ?? ctx.conversationId,
        agentId: ctx.agentId,
        toolCallId: ctx.callId ?? '',
        toolName: modelName,
        server: serverName,
        tool: tool.name,
        arguments: JSON.stringify(args),
      },
      ctx.signal,
    );
    if (answer === 'deny') return toolResult('denied', DENIED);
    if (answer === 'cancelled') return toolResult('cancelled', CANCELLED_BY_USER);
    if (answer === 'always') {
      deps.alwaysAllow(serverName, tool.name);
      deps.approvals.allowWaiting(serverName, tool.name);
    }
  }
  deps.usedBy(serverName, ctx);
  const timeoutMs = server.config.timeoutMs;
  let task: TaskState | null = null;
  const taskStatus = (next: TaskState) => {
    task = next;
    deps.taskStatus?.({
      conversationId: ctx.transcriptId ?? ctx.conversationId,
      toolCallId: ctx.callId ?? '',
      toolName: modelName,
      ...next,
    });
  };
  // A task's last status may not come (Stop, a timeout): its end is told, so nothing shows it running.
  const taskEnded = (status: TaskState['status']) => {
    const last = task as TaskState | null;
    if (last && !TASK_ENDED.has(last.status)) taskStatus({ taskId: last.taskId, status, message: null });
  };
  try {
    const connection = await server.ensure();
    ctx.running?.();
    const result = await connection.callTool(tool.name, args, {
      signal: ctx.signal,
      timeoutMs,
      onProgress: ({ progress, total, message: text }) =>
        deps.progress({
          conversationId: ctx.transcriptId ?? ctx.conversationId,
          toolCallId: ctx.callId ?? '',
          progress,
          total: total ?? null,
          message: text ?? null,
        }),
      onTask: taskStatus,
    });
    taskEnded(result.isError ? 'failed' : 'completed');
    server.succeeded();
    const converted = convertResult(result, server.config.name);
    deps.output(ctx, converted);
    deps.raw?.(ctx, serverName, tool, result);
    // A server that echoes its own key (e.g. printing its environment) does not hand it to the model.
    return toolResult(converted.isError ? 'error' : 'ok', redactSecrets(converted.text, server.config));
  } catch (error) {
    taskEnded(ctx.signal.aborted ? 'cancelled' : 'failed');
    // Stop: the SDK has sent notifications/cancelled for the request, which the server may have carried out already.
    if (ctx.signal.aborted) return toolResult('cancelled', CANCELLED_WHILE_RUNNING);
    const refusal = signInNeededIn(error);
    if (refusal) {
      // Refused before starting (the server stays refused) or during this call (it is marked now).
      if (server.status() !== 'error') await server.refusedDuringCall(refusal);
      deps.signInNeeded?.(ctx, serverName);
      return toolResult('error', signInMessage(serverName, refusal));
    }
    return failure(serverName, tool.name, error, timeoutMs);
  }
}

/** The registry entry for one MCP tool; `modelName` is the sanitized `mcp__server__tool`. */
export function mcpTool(server: McpServer, tool: Tool, modelName: string, deps: McpToolDeps): ToolDefinition {
  const description = [tool.title && tool.title !== tool.name ? `${tool.title}.` : '', tool.description ?? '']
    .filter(Boolean)
    .join(' ');
  return defineTool({
    name: modelName,
    description: `${description || `Tool ${tool.name}`} (MCP server "${server.config.name}")`,
    parameters: z.record(z.string(), z.unknown()),
    inputSchema: tool.inputSchema as Record<string, unknown>,
    // A tool whose visibility is its app's only is never offered to a model (MCP Apps).
    ...(appOnly(tool) ? { availableTo: 'apps' as const } : {}),
    // Read at call time: the user may mark the server read-only after its tools were listed.
    safeWhilePlanning: () => tool.annotations?.readOnlyHint === true || server.config.readOnly,
    handler: (args, ctx) => runTool(server, tool, modelName, args, ctx, deps),
  }) as unknown as ToolDefinition;
}
