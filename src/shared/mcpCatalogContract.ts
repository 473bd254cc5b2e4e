// MCP prompts, resources and completion: this feature's part of the IPC contract (merged
// into shared/ipc.ts). Lists start the enabled servers that are not running yet.
import { z } from 'zod';
import { call, Empty } from './contract';
import {
  McpCompleteRequest,
  McpContent,
  McpGetPromptRequest,
  McpPromptList,
  McpPromptResult,
  McpReadRequest,
  McpResourceList,
  McpSendPromptRequest,
} from './mcpCatalog';

export const mcpCatalogCalls = {
  /** The prompts of every enabled server (shown under "/"). */
  'mcp:prompts': call(Empty, McpPromptList),
  /** A prompt's messages with the arguments the user gave. */
  'mcp:getPrompt': call(McpGetPromptRequest, McpPromptResult),
  /**
   * Sends a prompt that holds a conversation (`sendAsGiven`) into a conversation: its messages
   * stored as given, roles kept; the model answers when the last is the user's.
   */
  'mcp:sendPrompt': call(McpSendPromptRequest, z.object({ notes: z.array(z.string()) })),
  /** The resources and resource templates of every enabled server (shown under "@"). */
  'mcp:resources': call(Empty, McpResourceList),
  /** Reads a resource (or a template filled in); refused over the attachment limit, with its size. */
  'mcp:readResource': call(McpReadRequest, z.object({ contents: z.array(McpContent) })),
  /** Suggestions for a prompt's or a resource template's argument (`completion/complete`). */
  'mcp:complete': call(McpCompleteRequest, z.object({ values: z.array(z.string()) })),
} as const;
