// `mcp.json` in the data directory, in the formats users already have: Claude Desktop /
// Cursor (`mcpServers`), VS Code (`servers` with `type`), Cline's `disabled` and
// `alwaysAllow`. Reading never changes the file; keys we do not know survive our writes.
import fs from 'node:fs';
import { z } from 'zod';
import { McpServerName, type McpServerInput, type McpTransport } from '../../../shared/mcp';
import { writePrivateFileSync } from '../storage/writePrivateFile';

export const MCP_FILE = 'mcp.json';
export const DEFAULT_TIMEOUT_SEC = 60;

const StringMap = z.record(z.string(), z.coerce.string());

/** One server entry as written in the file (loose: unknown keys are kept). */
const RawServer = z.looseObject({
  type: z.string().optional(),
  command: z.string().optional(),
  args: z.array(z.coerce.string()).optional(),
  env: StringMap.optional(),
  cwd: z.string().optional(),
  url: z.string().optional(),
  headers: StringMap.optional(),
  disabled: z.boolean().optional(),
  alwaysAllow: z.array(z.string()).optional(),
  /** Stepwise: tools the user switched off. */
  disabledTools: z.array(z.string()).optional(),
  /** Stepwise: "Run tools without asking". */
  trusted: z.boolean().optional(),
  /** Stepwise: every tool of the server counts as read-only while a plan is reviewed. */
  readOnly: z.boolean().optional(),
  /** Seconds per call (Cline's key). */
  timeout: z.number().positive().optional(),
  /** A client registered with the server's authorization server by hand, for servers that offer no registration. */
  oauth: z.looseObject({ clientId: z.string().optional(), clientSecret: z.string().optional() }).optional(),
});
type RawServer = z.infer<typeof RawServer>;

const RawFile = z.looseObject({
  mcpServers: z.record(z.string(), RawServer).optional(),
  servers: z.record(z.string(), RawServer).optional(),
});
export type RawFile = z.infer<typeof RawFile>;

export interface ServerConfig {
  name: string;
  transport: McpTransport;
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
  url: string;
  headers: Record<string, string>;
  enabled: boolean;
  trusted: boolean;
  readOnly: boolean;
  alwaysAllow: string[];
  disabledTools: string[];
  timeoutMs: number;
  /** A pre-registered OAuth client (`oauth.clientId`, `oauth.clientSecret`); empty: register one. */
  oauthClientId: string;
  oauthClientSecret: string;
}

export type ParsedConfig = { ok: true; raw: RawFile; servers: ServerConfig[] } | { ok: false; error: string };

/** Which key the file keeps its servers under (we write back to the same one). */
function serversKey(raw: RawFile): 'mcpServers' | 'servers' {
  return raw.mcpServers === undefined && raw.servers !== undefined ? 'servers' : 'mcpServers';
}

function transportOf(entry: RawServer): McpTransport | string {
  const type = entry.type?.toLowerCase();
  if (type === 'stdio' || type === 'sse') return type;
  if (type === 'http' || type === 'streamable-http' || type === 'streamablehttp') return 'http';
  if (type) return type;
  return entry.url ? 'http' : 'stdio';
}

function normalize(name: string, entry: RawServer): ServerConfig | string {
  const named = McpServerName.safeParse(name);
  if (!named.success) return `server ${JSON.stringify(name)}: ${named.error.issues[0].message}`;
  const transport = transportOf(entry);
  if (transport !== 'stdio' && transport !== 'http' && transport !== 'sse') {
    return `server "${name}": type must be "stdio", "http" or "sse", not ${JSON.stringify(entry.type)}`;
  }
  if (transport === 'stdio' && !entry.command?.trim()) return `server "${name}" needs a "command" (or a "url")`;
  if (transport !== 'stdio') {
    const url = URL.canParse(entry.url ?? '') ? new URL(entry.url!) : null;
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
      return `server "${name}" needs an http(s) "url", not ${JSON.stringify(entry.url ?? '')}`;
    }
  }
  return {
    name,
    transport,
    command: entry.command ?? '',
    args: entry.args ?? [],
    env: entry.env ?? {},
    cwd: entry.cwd ?? '',
    url: entry.url ?? '',
    headers: entry.headers ?? {},
    enabled: entry.disabled !== true,
    trusted: entry.trusted === true,
    readOnly: entry.readOnly === true,
    alwaysAllow: entry.alwaysAllow ?? [],
    disabledTools: entry.disabledTools ?? [],
    timeoutMs: Math.round((entry.timeout ?? DEFAULT_TIMEOUT_SEC) * 1000),
    oauthClientId: entry.oauth?.clientId ?? '',
    oauthClientSecret: entry.oauth?.clientSecret ?? '',
  };
}

/** `…at position 41 (line 3 column 5)` → `line 3`, whatever the engine's wording. */
function jsonErrorLine(text: string, error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const line = /line (\d+)/.exec(message)?.[1];
  const position = /position (\d+)/.exec(message)?.[1];
  const at = line ?? (position ? String(text.slice(0, Number(position)).split('\n').length) : null);
  return at ? `line ${at}: ${message}` : message;
}

/** Text of the file → the servers it configures, or an error naming the line. */
export function parseConfig(text: string): ParsedConfig {
  if (!text.trim()) return { ok: true, raw: {}, servers: [] };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: `mcp.json is not valid JSON (${jsonErrorLine(text, error)})` };
  }
  const raw = RawFile.safeParse(json);
  if (!raw.success) {
    const issue = raw.error.issues[0];
    return { ok: false, error: `mcp.json: ${issue.path.map(String).join('.') || 'the file'}: ${issue.message}` };
  }
  const servers: ServerConfig[] = [];
  for (const [name, entry] of Object.entries(raw.data[serversKey(raw.data)] ?? {})) {
    const server = normalize(name, entry);
    if (typeof server === 'string') return { ok: false, error: `mcp.json: ${server}` };
    servers.push(server);
  }
  return { ok: true, raw: raw.data, servers };
}

export function readConfigText(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return '';
    throw error;
  }
}

/** Writes atomically and readable by the user only (it may hold keys). */
export function writeConfig(file: string, raw: RawFile): string {
  const text = `${JSON.stringify(raw, null, 2)}\n`;
  writePrivateFileSync(file, text);
  return text;
}

type Entries = Record<string, RawServer>;

/** A copy of the file with its servers changed by `edit` (other keys untouched). */
export function editServers(raw: RawFile, edit: (servers: Entries) => Entries): RawFile {
  const key = serversKey(raw);
  return { ...raw, [key]: edit({ ...raw[key] }) };
}

export function editServer(raw: RawFile, name: string, edit: (entry: RawServer) => RawServer): RawFile {
  return editServers(raw, (servers) => {
    const entry = servers[name];
    if (!entry) return servers;
    return { ...servers, [name]: edit({ ...entry }) };
  });
}

/** The entry for a server the form sent, keeping Stepwise/Cline keys of the old entry. */
export function entryFromInput(input: McpServerInput, old: RawServer | undefined, vscodeStyle: boolean): RawServer {
  const base: RawServer = { ...old };
  for (const key of ['type', 'command', 'args', 'env', 'cwd', 'url', 'headers', 'timeout'] as const) delete base[key];
  const timeout = input.timeoutSec === DEFAULT_TIMEOUT_SEC ? {} : { timeout: input.timeoutSec };
  if (input.transport === 'stdio') {
    return {
      ...(vscodeStyle ? { type: 'stdio' } : {}),
      command: input.command.trim(),
      args: input.args,
      ...(Object.keys(input.env).length ? { env: input.env } : {}),
      ...(input.cwd.trim() ? { cwd: input.cwd.trim() } : {}),
      ...timeout,
      ...base,
    };
  }
  return {
    ...(vscodeStyle || input.transport === 'sse' ? { type: input.transport } : {}),
    url: input.url.trim(),
    ...(Object.keys(input.headers).length ? { headers: input.headers } : {}),
    ...timeout,
    ...base,
  };
}

export function usesVscodeStyle(raw: RawFile): boolean {
  return serversKey(raw) === 'servers';
}

export function rawEntry(raw: RawFile, name: string): RawServer | undefined {
  return raw[serversKey(raw)]?.[name];
}

/**
 * Pasted text → server entries. Accepts a whole file (`mcpServers` or `servers`), a bare
 * `{"name": {...}}` map, or the `"name": {...}` fragment users copy out of READMEs.
 */
export function parsePasted(text: string): { ok: true; entries: Entries } | { ok: false; error: string } {
  const trimmed = text.trim();
  const candidates = [trimmed, `{${trimmed}}`];
  let firstError = '';
  for (const candidate of candidates) {
    let json: unknown;
    try {
      json = JSON.parse(candidate);
    } catch (error) {
      firstError ||= jsonErrorLine(candidate, error);
      continue;
    }
    const file = RawFile.safeParse(json);
    const map = file.success && (file.data.mcpServers ?? file.data.servers);
    const entries = map || z.record(z.string(), RawServer).safeParse(json).data;
    if (!entries || !Object.keys(entries).length) return { ok: false, error: 'The pasted JSON names no servers.' };
    for (const [name, entry] of Object.entries(entries)) {
      const server = normalize(name, entry);
      if (typeof server === 'string') return { ok: false, error: server };
    }
    return { ok: true, entries };
  }
  return { ok: false, error: `The pasted text is not valid JSON (${firstError}).` };
}

/** Whether two configurations start the same server (anything else changes without a restart). */
export function sameLaunch(a: ServerConfig, b: ServerConfig): boolean {
  const launch = (c: ServerConfig) =>
    JSON.stringify([
      c.transport,
      c.command,
      c.args,
      c.env,
      c.cwd,
      c.url,
      c.headers,
      c.oauthClientId,
      c.oauthClientSecret,
    ]);
  return launch(a) === launch(b);
}
