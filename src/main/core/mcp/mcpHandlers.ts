// The Settings → Tools (MCP) calls: every change goes through `edit`, which refuses to
// write over a file it could not read.
import { maskSecret, type McpState, type ToolOutput } from '../../../shared/mcp';
import { AppError, notFound } from '../ipc/dispatcher';
import {
  editServer,
  editServers,
  entryFromInput,
  parseConfig,
  parsePasted,
  rawEntry,
  usesVscodeStyle,
  type RawFile,
  type ServerConfig,
} from './mcpConfig';
import type { McpServer } from './mcpServer';
import type { HandlersFor } from '../../../shared/contract';
import type { mcpCalls } from '../../../shared/mcpContract';

export interface McpHandlerDeps {
  state(): McpState;
  edit(change: (current: RawFile) => RawFile): McpState;
  must(name: string): McpServer;
  has(name: string): boolean;
  raw(): RawFile;
  /** The user has seen this server's command in Settings and lets it run (mcpKnown.ts). */
  allow(config: ServerConfig): void;
  output(conversationId: string, toolCallId: string): ToolOutput | null;
  /** Starts a sign-in; resolves with the authorization page to open (null: none needed). */
  signIn(server: McpServer): Promise<string | null>;
  signOut(server: McpServer): Promise<void>;
}

export function mcpHandlers(deps: McpHandlerDeps) {
  const handlers: HandlersFor<typeof mcpCalls> = {
    'mcp:get': () => deps.state(),
    'mcp:saveServer': ({ previousName, server: input }) => {
      const from = previousName ?? input.name;
      if (previousName && !deps.has(previousName)) throw notFound(`MCP server "${previousName}"`);
      if (input.name !== from && deps.has(input.name)) {
        throw new AppError('conflict', `There is already an MCP server named "${input.name}".`);
      }
      const old = rawEntry(deps.raw(), from);
      const keep = (values: Record<string, string>, stored: Record<string, string> | undefined) =>
        Object.fromEntries(
          Object.entries(values).map(([k, v]) => [
            k,
            stored?.[k] !== undefined && v === maskSecret(stored[k]) ? stored[k] : v,
          ]),
        );
      const entry = entryFromInput(
        { ...input, env: keep(input.env, old?.env), headers: keep(input.headers, old?.headers) },
        // A new server starts disabled: the user enables it after seeing what it runs.
        old ?? { disabled: true },
        usesVscodeStyle(deps.raw()),
      );
      const problem = parsePasted(JSON.stringify({ [input.name]: entry }));
      if (!problem.ok) throw new AppError('invalid_request', problem.error);
      // Saved from the form, where its command is shown: an enabled server keeps running.
      const saved = parseConfig(JSON.stringify({ mcpServers: { [input.name]: entry } }));
      if (saved.ok && saved.servers[0]?.enabled) deps.allow(saved.servers[0]);
      return deps.edit((current) =>
        editServers(current, (entries) => {
          const next = { ...entries };
          delete next[from];
          next[input.name] = entry;
          return next;
        }),
      );
    },
    'mcp:removeServer': ({ name }) => {
      deps.must(name);
      return deps.edit((current) =>
        editServers(current, (entries) => {
          const next = { ...entries };
          delete next[name];
          return next;
        }),
      );
    },
    'mcp:import': ({ text }) => {
      const pasted = parsePasted(text);
      if (!pasted.ok) throw new AppError('invalid_request', pasted.error);
      const taken = Object.keys(pasted.entries).filter((name) => deps.has(name));
      if (taken.length)
        throw new AppError('conflict', `Already configured: ${taken.join(', ')}. Remove or rename it first.`);
      const added = Object.keys(pasted.entries);
      const next = deps.edit((current) =>
        editServers(current, (entries) => {
          const merged = { ...entries };
          // Pasted servers start disabled whatever the paste says.
          for (const [name, entry] of Object.entries(pasted.entries)) merged[name] = { ...entry, disabled: true };
          return merged;
        }),
      );
      return { state: next, added };
    },
    'mcp:setEnabled': ({ name, enabled }) => {
      const server = deps.must(name);
      if (enabled) deps.allow(server.config);
      return deps.edit((current) => editServer(current, name, (entry) => ({ ...entry, disabled: !enabled })));
    },
    'mcp:setTrusted': ({ name, trusted }) => {
      deps.must(name);
      return deps.edit((current) => editServer(current, name, (entry) => ({ ...entry, trusted })));
    },
    'mcp:setReadOnly': ({ name, readOnly }) => {
      deps.must(name);
      return deps.edit((current) => editServer(current, name, (entry) => ({ ...entry, readOnly })));
    },
    'mcp:setToolEnabled': ({ name, tool, enabled }) => {
      deps.must(name);
      return deps.edit((current) =>
        editServer(current, name, (entry) => {
          const off = new Set(entry.disabledTools ?? []);
          if (enabled) off.delete(tool);
          else off.add(tool);
          return { ...entry, disabledTools: [...off] };
        }),
      );
    },
    'tools:output': ({ conversationId, toolCallId }) => deps.output(conversationId, toolCallId),
    'mcp:restart': async ({ name }) => {
      const server = deps.must(name);
      if (!server.config.enabled) throw new AppError('conflict', `MCP server "${name}" is disabled. Enable it first.`);
      await server.restart();
      return deps.state();
    },
    'mcp:signIn': async ({ name }) => {
      const authorizationUrl = await deps.signIn(deps.must(name));
      return { state: deps.state(), authorizationUrl };
    },
    'mcp:log': ({ name }) => deps.must(name).log(),
    'mcp:signOut': async ({ name }) => {
      await deps.signOut(deps.must(name));
      return deps.state();
    },
  };
  return handlers;
}
