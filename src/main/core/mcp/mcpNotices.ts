// The notices the MCP module words itself: tools a server lists that cannot be offered,
// and servers written into mcp.json by hand that the user has not turned on.
import type { Notices } from '../notices/noticesModule';
import type { ServerConfig } from './mcpConfig';
import type { McpServer } from './mcpServer';
import { launchLine } from './mcpView';

const HELD_NOTICE = 'mcp-new-servers';

/** Tools a server lists but Stepwise cannot offer are named in a notice of their own. */
export function reportInvalid(notices: Notices, server: McpServer) {
  const id = `mcp-tools-invalid-${server.config.name}`;
  const invalid = server.invalidTools();
  if (!invalid.length) {
    if (notices.list().some((n) => n.id === id)) notices.dismiss(id);
    return;
  }
  const named = invalid.slice(0, 5).map((tool) => `"${tool.name}" (${tool.problem})`);
  const more = invalid.length > 5 ? ` and ${invalid.length - 5} more` : '';
  notices.add({
    id,
    level: 'warning',
    text:
      `The MCP server "${server.config.name}" lists ${invalid.length === 1 ? 'a tool' : `${invalid.length} tools`} Stepwise cannot offer: ` +
      `${named.join(', ')}${more}. Its other tools work; ask the server's author to fix it.`,
  });
}

/** Servers written into mcp.json by hand that the user has not allowed: named, with what they would run. */
export function reportHeld(notices: Notices, held: ServerConfig[]) {
  if (!held.length) {
    if (notices.list().some((n) => n.id === HELD_NOTICE)) notices.dismiss(HELD_NOTICE);
    return;
  }
  const named = held.map((c) => `"${c.name}" (runs: ${launchLine(c)})`).join('; ');
  notices.add({
    id: HELD_NOTICE,
    level: 'warning',
    text:
      `mcp.json has ${held.length === 1 ? 'a server' : `${held.length} servers`} you have not turned on in Stepwise: ${named}. ` +
      `${held.length === 1 ? 'It stays' : 'They stay'} off until you check the command and turn ${held.length === 1 ? 'it' : 'them'} on in Settings → Tools (MCP).`,
  });
}

/** A server that failed is reported once as a notice, which goes when it is ready again. */
export function createFailureNotices(notices: Notices, waitsForSignIn: (config: ServerConfig) => boolean) {
  const reported = new Set<string>();
  const forget = (name: string) => {
    if (reported.delete(name)) notices.dismiss(`mcp-server-${name}`);
  };
  return {
    report(server: McpServer) {
      const name = server.config.name;
      const id = `mcp-server-${name}`;
      // A server waiting for a sign-in shows it on its card; a notice would only repeat it.
      if (server.status() === 'error' && !reported.has(name) && !waitsForSignIn(server.config)) {
        reported.add(name);
        notices.add({
          id,
          level: 'warning',
          text: `${server.error()} Stepwise restarts it the next time a conversation needs it; Settings → Tools (MCP) shows its error output.`,
        });
      } else if (server.status() === 'ready') {
        forget(name);
      }
    },
    /** The server went or was turned off: its notice goes with it. */
    forget,
  };
}
