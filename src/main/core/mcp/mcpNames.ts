// The names the model sees: `mcp__<server>__<tool>`, within the API's `^[a-zA-Z0-9_-]{1,64}$`.
// A name that would be too long (or collide after sanitizing, or whose server part could
// be read two ways) ends in a short hash of the original pair, so the same tool always
// gets the same name and two tools never share one.
import { createHash } from 'node:crypto';

export const MCP_PREFIX = 'mcp__';
const MAX = 64;

function clean(part: string): string {
  return part.replace(/[^a-zA-Z0-9_-]/g, '_') || '_';
}

function shortHash(server: string, tool: string): string {
  return createHash('sha256').update(`${server}\u0000${tool}`).digest('hex').slice(0, 8);
}

/**
 * Whether `mcp__<server>__` can be read only one way. Otherwise two servers' tools could
 * get the same name (`a` + `b__c` and `a__b` + `c`), so every tool of such a server ends
 * in its hash instead. (Names equal only after cleaning, `a.b` and `a_b`, are caught
 * when registering: the second is not offered, and a notice says so.)
 */
function plainServer(server: string): boolean {
  const part = clean(server);
  return !part.includes('__') && !part.endsWith('_');
}

export function modelToolName(server: string, tool: string, forceHash = false): string {
  const full = `${MCP_PREFIX}${clean(server)}__${clean(tool)}`;
  if (full.length <= MAX && !forceHash && plainServer(server)) return full;
  const suffix = `_${shortHash(server, tool)}`;
  return `${full.slice(0, MAX - suffix.length)}${suffix}`;
}

/** Names for a server's tools: distinct, stable, valid. */
export function modelToolNames(server: string, tools: string[]): Map<string, string> {
  const plain = new Map<string, number>();
  for (const tool of tools) {
    const name = modelToolName(server, tool);
    plain.set(name, (plain.get(name) ?? 0) + 1);
  }
  return new Map(tools.map((tool) => [tool, modelToolName(server, tool, plain.get(modelToolName(server, tool))! > 1)]));
}
