// MCP Apps in main: which tool step has an app, its `ui://` document (with its CSP), and the
// tool calls the app makes. The app's calls run through the tool registry like the model's,
// so plan review's gate and the user's approvals apply to them unchanged.
import { randomUUID } from 'node:crypto';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { McpAppCall, McpAppResource, McpAppToolResult, mcpAppsCalls } from '../../../shared/mcpAppsContract';
import type { HandlersFor } from '../../../shared/contract';
import { AppError, notFound } from '../ipc/dispatcher';
import type { ToolRegistry } from '../tools/toolRegistry';
import type { ToolContext } from '../tools/toolTypes';
import { allowAttribute, appCsp, withCsp, type AppCspMeta } from './mcpAppCsp';
import { createAppContexts } from './mcpAppContext';
import { modelToolNames } from './mcpNames';
import type { McpServer } from './mcpServer';

/** Raw results kept for the apps of recent steps (after a restart the step's stored text is used). */
const KEPT_RESULTS = 200;
/** A result larger than this (as JSON) is not kept: its app gets the stored text instead. */
const KEPT_RESULT_CHARS = 2_000_000;
export const APP_HTML_MAX = 5 * 1024 * 1024;
export const APP_MIME = 'text/html;profile=mcp-app';

/** The tool's `ui://` resource: `_meta.ui.resourceUri`, or the older flat `_meta["ui/resourceUri"]`. */
export function appResourceUri(tool: Tool): string | null {
  const meta = tool._meta as Record<string, unknown> | undefined;
  const nested = (meta?.ui as { resourceUri?: unknown } | undefined)?.resourceUri;
  const uri = nested ?? meta?.['ui/resourceUri'];
  return typeof uri === 'string' && uri.startsWith('ui://') ? uri : null;
}

/** Who may call a tool (`_meta.ui.visibility`; both the model and its app by default). */
export function toolVisibility(tool: Tool): { model: boolean; app: boolean } {
  const visibility = ((tool._meta as Record<string, unknown> | undefined)?.ui as { visibility?: unknown } | undefined)
    ?.visibility;
  if (!Array.isArray(visibility)) return { model: true, app: true };
  return { model: visibility.includes('model'), app: visibility.includes('app') };
}

/** A tool only its server's apps may call: never offered to a model. */
export const appOnly = (tool: Tool) => !toolVisibility(tool).model;

/** Commands the composer runs: an app's message is never one (it would clear or compact the conversation). */
const COMMANDS = new Set(['/clear', '/compact']);

export interface McpAppsDeps {
  server(name: string): McpServer | undefined;
  servers(): Iterable<McpServer>;
  tools: Pick<ToolRegistry, 'run'>;
  /** Sends a message into the conversation as the user (`ui/message`); throws while a reply runs. */
  sendMessage?(conversationId: string, text: string): void;
}

interface Kept {
  server: string;
  tool: string;
  result: CallToolResult;
}

const key = (transcriptId: string, callId: string) => `${transcriptId}\n${callId}`;

export function createMcpApps(deps: McpAppsDeps) {
  const kept = new Map<string, Kept>();
  const calls = new Set<AbortController>();
  const contexts = createAppContexts();
  /** Conversations whose last user message an app sent: no app sends another until the user writes. */
  const awaitingUser = new Set<string>();
  let sendingForApp = false;

  function modelNameOf(server: McpServer, tool: string): string | undefined {
    return modelToolNames(
      server.config.name,
      server.tools().map((t) => t.name),
    ).get(tool);
  }

  /** The server and tool behind a model name, from the servers' current listings. */
  function byModelName(name: string): { server: McpServer; tool: Tool } | null {
    for (const server of deps.servers()) {
      const names = modelToolNames(
        server.config.name,
        server.tools().map((t) => t.name),
      );
      const tool = server.tools().find((t) => names.get(t.name) === name);
      if (tool) return { server, tool };
    }
    return null;
  }

  function resourceOf(serverName: string, toolName: string): string | null {
    const tool = deps
      .server(serverName)
      ?.tools()
      .find((t) => t.name === toolName);
    return tool ? appResourceUri(tool) : null;
  }

  return {
    /** Keeps an MCP call's raw result for the app of its step (the model reads the converted text). */
    remember(ctx: ToolContext, server: string, tool: Tool, result: CallToolResult): void {
      if (!ctx.callId || !appResourceUri(tool)) return;
      if (JSON.stringify(result).length > KEPT_RESULT_CHARS) return;
      kept.set(key(ctx.transcriptId ?? ctx.conversationId, ctx.callId), { server, tool: tool.name, result });
      if (kept.size > KEPT_RESULTS) kept.delete(kept.keys().next().value!);
    },

    forCall(conversationId: string, toolCallId: string, toolName: string): McpAppCall | null {
      const found = kept.get(key(conversationId, toolCallId));
      if (found) {
        const uri = resourceOf(found.server, found.tool);
        return uri
          ? { server: found.server, tool: found.tool, resourceUri: uri, result: asAppResult(found.result) }
          : null;
      }
      const listed = byModelName(toolName);
      const uri = listed && appResourceUri(listed.tool);
      return listed && uri
        ? { server: listed.server.config.name, tool: listed.tool.name, resourceUri: uri, result: null }
        : null;
    },

    async resource(serverName: string, uri: string): Promise<McpAppResource> {
      const server = deps.server(serverName);
      if (!server) throw notFound(`MCP server "${serverName}"`);
      if (!server.config.enabled)
        throw new AppError('conflict', `MCP server "${serverName}" is disabled, so its app cannot be shown.`);
      const connection = await server.ensure().catch((error: unknown) => {
        throw new AppError('unavailable', error instanceof Error ? error.message : String(error));
      });
      const read = await connection.readResource(uri, server.config.timeoutMs).catch((error: unknown) => {
        throw new AppError(
          'unavailable',
          `MCP server "${serverName}" could not read ${uri}: ${error instanceof Error ? error.message : String(error)}`,
        );
      });
      const content = read.contents.find((c) => c.uri === uri) ?? read.contents[0];
      const text = content && 'text' in content && typeof content.text === 'string' ? content.text : null;
      if (!content || text === null || !(content.mimeType ?? '').toLowerCase().startsWith('text/html'))
        throw new AppError(
          'invalid_request',
          `${uri} from MCP server "${serverName}" is not an HTML app (${content?.mimeType ?? 'no content'}).`,
        );
      if (text.length > APP_HTML_MAX)
        throw new AppError(
          'invalid_request',
          `${uri} from MCP server "${serverName}" is ${(text.length / 1024 / 1024).toFixed(1)} MB, over the 5 MB an app may be.`,
        );
      const ui = (content._meta as { ui?: { csp?: AppCspMeta; permissions?: unknown; prefersBorder?: unknown } })?.ui;
      return {
        html: withCsp(text, appCsp(ui?.csp)),
        allow: allowAttribute(ui?.permissions),
        prefersBorder: ui?.prefersBorder !== false,
      };
    },

    /** A call the app makes: a tool of its own server, through the registry (gate, approvals, Stop). */
    async callTool(request: {
      conversationId: string;
      server: string;
      name: string;
      arguments: Record<string, unknown>;
    }): Promise<McpAppToolResult> {
      const server = deps.server(request.server);
      if (!server) throw notFound(`MCP server "${request.server}"`);
      const modelName = modelNameOf(server, request.name);
      const tool = server.tools().find((t) => t.name === request.name);
      if (!modelName || !tool)
        throw new AppError('not_found', `MCP server "${request.server}" has no tool named "${request.name}".`);
      if (!toolVisibility(tool).app)
        throw new AppError(
          'invalid_request',
          `Tool "${request.name}" of MCP server "${request.server}" is for the model only (its visibility), so its app cannot call it.`,
        );
      const controller = new AbortController();
      calls.add(controller);
      const ctx: ToolContext = {
        conversationId: request.conversationId,
        transcriptId: request.conversationId,
        agentId: 'main',
        signal: controller.signal,
        callId: `app-${randomUUID()}`,
        fromApp: true,
      };
      try {
        const ran = await deps.tools.run(modelName, JSON.stringify(request.arguments), ctx);
        const raw = kept.get(key(ctx.transcriptId!, ctx.callId!));
        kept.delete(key(ctx.transcriptId!, ctx.callId!));
        if (raw && ran.ok) return asAppResult(raw.result);
        return { content: [{ type: 'text', text: ran.content }], isError: !ran.ok };
      } finally {
        calls.delete(controller);
      }
    },

    /** `ui/message`: the app's text, sent into the conversation as the user's message. */
    message(request: { conversationId: string; text: string }): null {
      const text = request.text.trim();
      if (!text) throw new AppError('invalid_request', 'The app sent an empty message.');
      if (COMMANDS.has(text.toLowerCase()))
        throw new AppError('invalid_request', `An app cannot run ${text}; only the user can.`);
      if (!deps.sendMessage) throw new AppError('unavailable', 'Messages from apps are not accepted here.');
      // An app answering each reply with a message would keep the model busy forever.
      if (awaitingUser.has(request.conversationId))
        throw new AppError(
          'conflict',
          'An app already sent the last message here; it may send another once the user has written.',
        );
      sendingForApp = true;
      try {
        deps.sendMessage(request.conversationId, text);
      } finally {
        sendingForApp = false;
      }
      awaitingUser.add(request.conversationId);
      return null;
    },

    /** A user message was stored: the user's own (not an app's) lets apps send again. */
    userWrote(conversationId: string): void {
      if (!sendingForApp) awaitingUser.delete(conversationId);
    },

    /** `ui/update-model-context`: the app's latest context, sent with the conversation's next requests. */
    updateModelContext(request: {
      conversationId: string;
      toolCallId: string;
      server: string;
      tool: string;
      content?: McpAppToolResult['content'];
      structuredContent?: Record<string, unknown>;
    }): null {
      contexts.update(
        request.conversationId,
        request.toolCallId,
        { server: request.server, tool: request.tool },
        request.content,
        request.structuredContent,
      );
      return null;
    },

    /** The system prompt's section of what the conversation's apps report (its own agent only). */
    contextSection: (conversationId: string, agentId: string) =>
      agentId === 'main' ? contexts.section(conversationId) : null,

    close(): void {
      for (const controller of calls) controller.abort();
    },
  };
}

export type McpApps = ReturnType<typeof createMcpApps>;

function asAppResult(result: CallToolResult): McpAppToolResult {
  return {
    content: result.content ?? [],
    ...(result.structuredContent ? { structuredContent: result.structuredContent } : {}),
    ...(result.isError ? { isError: true } : {}),
  };
}

export function mcpAppsHandlers(apps: McpApps): HandlersFor<typeof mcpAppsCalls> {
  return {
    'mcpApps:forCall': ({ conversationId, toolCallId, toolName }) => apps.forCall(conversationId, toolCallId, toolName),
    'mcpApps:resource': ({ server, uri }) => apps.resource(server, uri),
    'mcpApps:callTool': (request) => apps.callTool(request),
    'mcpApps:message': (request) => apps.message(request),
    'mcpApps:updateModelContext': (request) => apps.updateModelContext(request),
  };
}
