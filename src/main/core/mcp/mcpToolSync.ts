// Which MCP tools the registry offers the model: the enabled tools of the enabled servers,
// in the order of mcp.json, at most MCP_TOOL_CAP of them in all. Hosted APIs refuse a
// request with more than 128 tools, and every definition takes room in the context
// window: a server with 2,000 tools would otherwise block every conversation. What is
// left out (or cannot be offered) is said in a notice that names the servers and tools.
import type { Notices } from '../notices/noticesModule';
import type { ToolRegistry } from '../tools/toolRegistry';
import type { ToolDefinition } from '../tools/toolTypes';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { appOnly } from './mcpApps';
import { modelToolNames } from './mcpNames';
import type { McpServer } from './mcpServer';

/** MCP tools offered per request, leaving room for Stepwise's own under the APIs' 128. */
export const MCP_TOOL_CAP = 100;
export const CAP_NOTICE = 'mcp-tool-cap';
export const CLASH_NOTICE = 'mcp-tool-clash';

export interface ToolSyncDeps {
  tools: Pick<ToolRegistry, 'has' | 'register'>;
  notices: Pick<Notices, 'add' | 'dismiss' | 'list'>;
  /** The registry entry for one tool of a server. */
  define(server: McpServer, tool: Tool, modelName: string): ToolDefinition;
}

export function createToolSync(deps: ToolSyncDeps) {
  let removers: Array<() => void> = [];
  /** Tools of a server that are enabled but not offered, by server name. */
  let leftOut = new Map<string, string[]>();
  /** Tools whose model name another tool already has (`server/tool` → that name). */
  let clashes: string[] = [];

  function notice(id: string, text: string | null) {
    if (text) deps.notices.add({ id, level: 'warning', text });
    else if (deps.notices.list().some((n) => n.id === id)) deps.notices.dismiss(id);
  }

  /** Registers exactly what is offered now (call after any server's tools or settings change). */
  function sync(servers: Iterable<McpServer>): void {
    for (const remove of removers) remove();
    removers = [];
    leftOut = new Map();
    clashes = [];
    let room = MCP_TOOL_CAP;
    for (const server of servers) {
      const { config } = server;
      if (!config.enabled) continue;
      const names = modelToolNames(
        config.name,
        server.tools().map((t) => t.name),
      );
      for (const tool of server.tools()) {
        if (config.disabledTools.includes(tool.name)) continue;
        const modelName = names.get(tool.name)!;
        if (deps.tools.has(modelName)) {
          clashes.push(`"${tool.name}" of "${config.name}" (${modelName})`);
          continue;
        }
        // Only its apps call it: no room taken in the model's request.
        if (appOnly(tool)) {
          removers.push(deps.tools.register(deps.define(server, tool, modelName)));
          continue;
        }
        if (room <= 0) {
          leftOut.set(config.name, [...(leftOut.get(config.name) ?? []), tool.name]);
          continue;
        }
        removers.push(deps.tools.register(deps.define(server, tool, modelName)));
        room--;
      }
    }
    notice(CAP_NOTICE, capText(leftOut));
    notice(
      CLASH_NOTICE,
      clashes.length
        ? `Not offered to the model, because another tool already has its name: ${clashes.join(', ')}. Rename one of the servers in mcp.json.`
        : null,
    );
  }

  return {
    sync,
    /** Whether a server's tool is enabled but not offered to the model (Settings says so). */
    isLeftOut: (server: string, tool: string) =>
      (leftOut.get(server)?.includes(tool) ?? false) || clashes.some((c) => c.startsWith(`"${tool}" of "${server}" (`)),
  };
}

function capText(leftOut: Map<string, string[]>): string | null {
  if (!leftOut.size) return null;
  const total = [...leftOut.values()].reduce((n, tools) => n + tools.length, 0);
  const servers = [...leftOut].map(([server, tools]) => {
    const named = tools.slice(0, 3).join(', ');
    return `"${server}" (${tools.length === 1 ? named : `${tools.length.toLocaleString('en-US')} tools: ${named}${tools.length > 3 ? ', …' : ''}`})`;
  });
  return (
    `${total.toLocaleString('en-US')} MCP ${total === 1 ? 'tool is' : 'tools are'} not offered to the model: at most ${MCP_TOOL_CAP} MCP tools ` +
    `go with a request (hosted APIs accept at most 128 tools in all, and each definition fills the context window). ` +
    `Left out, from ${servers.join(' and ')}. Turn off the servers or tools you do not need in Settings → Tools (MCP).`
  );
}
