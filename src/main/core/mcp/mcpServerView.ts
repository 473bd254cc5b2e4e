// What Settings → Tools (MCP) shows of one server: its configuration with secrets masked,
// its state, and each tool with whether the model is offered it.
import { maskSecret, type McpServerView } from '../../../shared/mcp';
import type { ServerConfig } from './mcpConfig';
import { modelToolNames } from './mcpNames';
import type { McpServer } from './mcpServer';
import type { SignInStatus } from './mcpSignIn';
import { launchLine, redactStderr } from './mcpView';

export interface ServerViewDeps {
  signInStatus(config: ServerConfig): { status: SignInStatus; url: string | null; error: string | null };
  /** A tool the registry's cap left out (mcpToolSync.ts). */
  isLeftOut(server: string, tool: string): boolean;
}

export function serverView(server: McpServer, deps: ServerViewDeps): McpServerView {
  const c = server.config;
  const names = modelToolNames(
    c.name,
    server.tools().map((t) => t.name),
  );
  const mask = (values: Record<string, string>) =>
    Object.fromEntries(Object.entries(values).map(([k, v]) => [k, maskSecret(v)]));
  return {
    name: c.name,
    transport: c.transport,
    command: c.command,
    args: c.args,
    env: mask(c.env),
    cwd: c.cwd,
    url: c.url,
    headers: mask(c.headers),
    timeoutSec: Math.round(c.timeoutMs / 1000),
    launch: launchLine(c),
    enabled: c.enabled,
    trusted: c.trusted,
    readOnly: c.readOnly,
    state: server.status(),
    error: server.error(),
    stderr: redactStderr(server.stderr(), c),
    ...signInView(c, deps),
    tools: server.tools().map((t) => ({
      name: t.name,
      modelName: names.get(t.name)!,
      description: t.description ?? '',
      readOnly: t.annotations?.readOnlyHint === true,
      enabled: !c.disabledTools.includes(t.name),
      offered: c.enabled && !c.disabledTools.includes(t.name) && !deps.isLeftOut(c.name, t.name),
      alwaysAllow: c.trusted || c.alwaysAllow.includes(t.name),
    })),
  };
}

function signInView(c: ServerConfig, deps: ServerViewDeps) {
  if (c.transport === 'stdio') return { signIn: 'none' as const, signInUrl: null, signInError: null };
  const { status, url, error } = deps.signInStatus(c);
  return { signIn: status, signInUrl: url, signInError: error };
}
