// MCP servers and their tools' outputs: this feature's part of the IPC contract (merged
// into shared/ipc.ts). The calls waiting for approval are approvalsContract.ts.
import { z } from 'zod';
import { call, Empty } from './contract';
import { ConversationId } from './domain';
import { McpLog, McpServerInput, McpServerName, McpState, ToolOutput, ToolProgress } from './mcp';

export const mcpCalls = {
  /** MCP servers (from `mcp.json`) with their state and tools; secrets masked. */
  'mcp:get': call(Empty, McpState),
  /** Adds or changes a server (`previousName` when editing one, to rename it). New servers start disabled. */
  'mcp:saveServer': call(
    z.strictObject({ previousName: McpServerName.nullable().default(null), server: McpServerInput }),
    McpState,
  ),
  'mcp:removeServer': call(z.strictObject({ name: McpServerName }), McpState),
  /** A pasted `mcpServers` block (or a whole file); every server it adds starts disabled. */
  'mcp:import': call(
    z.strictObject({ text: z.string().max(200_000) }),
    z.object({ state: McpState, added: z.array(z.string()) }),
  ),
  'mcp:setEnabled': call(z.strictObject({ name: McpServerName, enabled: z.boolean() }), McpState),
  /** "Run tools without asking" for every tool of the server. */
  'mcp:setTrusted': call(z.strictObject({ name: McpServerName, trusted: z.boolean() }), McpState),
  /** Settings → Tools (MCP): every tool of this server counts as read-only while a plan is reviewed. */
  'mcp:setReadOnly': call(z.strictObject({ name: McpServerName, readOnly: z.boolean() }), McpState),
  'mcp:setToolEnabled': call(
    z.strictObject({ name: McpServerName, tool: z.string().max(500), enabled: z.boolean() }),
    McpState,
  ),
  'mcp:restart': call(z.strictObject({ name: McpServerName }), McpState),
  /**
   * Starts signing in to a remote server; `authorizationUrl` is the page the renderer opens
   * in the system browser (a new tab in the browser host), null when no page is needed.
   */
  'mcp:signIn': call(
    z.strictObject({ name: McpServerName }),
    z.object({ state: McpState, authorizationUrl: z.string().nullable() }),
  ),
  /** The server's last 500 log messages (its card's Log). */
  'mcp:log': call(z.strictObject({ name: McpServerName }), McpLog),
  /** Forgets the server's tokens (and stops a sign-in in progress). */
  'mcp:signOut': call(z.strictObject({ name: McpServerName }), McpState),
  /** Images and resources an MCP call returned (`conversationId`: where its card is). */
  'tools:output': call(
    z.strictObject({ conversationId: ConversationId, toolCallId: z.string().max(200) }),
    ToolOutput.nullable(),
  ),
} as const;

export const mcpEvents = {
  'mcp:changed': McpState,
  /** A running tool reported progress (shown in its card). */
  'tools:progress': ToolProgress,
} as const;
