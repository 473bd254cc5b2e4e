// What an MCP tool step shows beyond its text. MCP Apps (the ext-apps extension): a tool whose
// definition names a `ui://` resource shows that resource in its step, in a sandboxed frame.
// And a step whose server wanted a sign-in offers Sign in. This feature's part of the IPC
// contract (merged into shared/ipc.ts). The renderer never talks to a server: the app's HTML, and
// every tool call the app makes, go through main.
import { z } from 'zod';
import { call } from './contract';
import { ConversationId } from './domain';
import { McpServerName } from './mcp';

/** A tool result as MCP carries it (what the app is sent and gets back from its calls). */
export const McpAppToolResult = z.object({
  content: z.array(z.looseObject({ type: z.string() })),
  structuredContent: z.record(z.string(), z.unknown()).optional(),
  isError: z.boolean().optional(),
});
export type McpAppToolResult = z.infer<typeof McpAppToolResult>;

/** The app of one tool step: which server and resource, and the call's raw result while main still has it. */
export const McpAppCall = z.object({
  server: z.string(),
  /** The tool's name on its server. */
  tool: z.string(),
  resourceUri: z.string(),
  /** Null after a restart: the renderer then sends the stored text result. */
  result: McpAppToolResult.nullable(),
});
export type McpAppCall = z.infer<typeof McpAppCall>;

/** The app's document, ready for the sandbox: its Content-Security-Policy is already in it. */
export const McpAppResource = z.object({
  html: z.string(),
  /** The frame's `allow` attribute (camera, microphone… as the resource asks), often empty. */
  allow: z.string(),
  prefersBorder: z.boolean(),
});
export type McpAppResource = z.infer<typeof McpAppResource>;

const ToolCallId = z.string().min(1).max(200);

/** An MCP task's status (a tool that runs as a task: MCP Tasks, protocol 2025-11-25). */
export const McpTaskStatus = z.enum(['working', 'input_required', 'completed', 'failed', 'cancelled']);
export type McpTaskStatus = z.infer<typeof McpTaskStatus>;

export const mcpAppsCalls = {
  /** The app of a tool step, or null when its tool has none. */
  'mcpApps:forCall': call(
    z.strictObject({ conversationId: ConversationId, toolCallId: ToolCallId, toolName: z.string().max(200) }),
    McpAppCall.nullable(),
  ),
  /** Reads the app's `ui://` resource from its server (HTML only, at most 5 MB). */
  'mcpApps:resource': call(
    z.strictObject({ server: McpServerName, uri: z.string().max(2000).startsWith('ui://') }),
    McpAppResource,
  ),
  /**
   * A tool call the app makes: a tool of the app's own server (`server`, from
   * `mcpApps:forCall`), through the same plan gate and approvals as the model's calls.
   */
  'mcpApps:callTool': call(
    z.strictObject({
      conversationId: ConversationId,
      server: McpServerName,
      name: z.string().min(1).max(500),
      arguments: z.record(z.string(), z.unknown()).default({}),
    }),
    McpAppToolResult,
  ),
  /** `ui/message`: the app's message, sent into the conversation as the user's (refused while a reply runs). */
  'mcpApps:message': call(
    z.strictObject({ conversationId: ConversationId, text: z.string().min(1).max(20_000) }),
    z.null(),
  ),
  /**
   * `ui/update-model-context`: the app's latest context (replacing its earlier one), sent to the
   * model with the conversation's next requests.
   */
  'mcpApps:updateModelContext': call(
    z.strictObject({
      conversationId: ConversationId,
      toolCallId: ToolCallId,
      server: McpServerName,
      tool: z.string().min(1).max(500),
      content: McpAppToolResult.shape.content.max(50).optional(),
      structuredContent: z.record(z.string(), z.unknown()).optional(),
    }),
    z.null(),
  ),
} as const;

/** A tool step's own sign-in (the step of a call its server refused with 401). */
export const mcpStepCalls = {
  /** The server a step's call needed a sign-in for (its step offers Sign in), or null. */
  'mcp:stepSignIn': call(
    z.strictObject({ conversationId: ConversationId, toolCallId: ToolCallId }),
    z.object({ server: z.string() }).nullable(),
  ),
} as const;

export const mcpAppsEvents = {
  /** A tool call running as an MCP task changed status (shown on its step). */
  'mcp:taskStatus': z.object({
    /** Where the call's step is (a worker's own transcript for a worker's call). */
    conversationId: z.string(),
    toolCallId: z.string(),
    /** The tool's model name (`mcp__server__tool`). */
    toolName: z.string(),
    taskId: z.string(),
    status: McpTaskStatus,
    message: z.string().nullable(),
    /** The task of the conversation's task list the call belongs to (its ledger), if any. */
    ledgerTask: z.object({ conversationId: z.string(), listId: z.number().int(), taskId: z.number().int() }).nullable(),
  }),
} as const;
