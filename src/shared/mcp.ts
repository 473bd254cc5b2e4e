// MCP servers and tool approvals as the renderer sees them. Secrets (env values, header
// values) never cross this boundary unmasked: main sends `maskSecret` forms only.
import { z } from 'zod';

export const McpTransport = z.enum(['stdio', 'http', 'sse']);
export type McpTransport = z.infer<typeof McpTransport>;

export const SERVER_NAME_MAX = 64;
export const McpServerName = z
  .string({ error: 'server name must be text' })
  .trim()
  .min(1, { error: 'server name must not be empty' })
  .max(SERVER_NAME_MAX, { error: `server name must be at most ${SERVER_NAME_MAX} characters` });

const StringMap = z.record(z.string(), z.string());

/** A server as the Settings form edits it. Masked values sent back unchanged keep the stored value. */
export const McpServerInput = z.strictObject({
  name: McpServerName,
  transport: McpTransport,
  command: z.string().max(4000).default(''),
  args: z.array(z.string().max(4000)).max(200).default([]),
  env: StringMap.default({}),
  cwd: z.string().max(4000).default(''),
  url: z.string().max(4000).default(''),
  headers: StringMap.default({}),
  /** Per-call timeout in seconds. */
  timeoutSec: z.number().int().min(1).max(3600).default(60),
});
export type McpServerInput = z.infer<typeof McpServerInput>;

export const McpToolView = z.object({
  /** The name the server gives the tool. */
  name: z.string(),
  /** The name the model sees: `mcp__<server>__<tool>`, sanitized. */
  modelName: z.string(),
  description: z.string(),
  readOnly: z.boolean(),
  enabled: z.boolean(),
  /** Whether the model is offered it now (false: switched off, or left out past the cap or by a name clash). */
  offered: z.boolean().default(true),
  alwaysAllow: z.boolean(),
});
export type McpToolView = z.infer<typeof McpToolView>;

export const McpServerState = z.enum(['stopped', 'starting', 'ready', 'error']);

/**
 * Sign-in to a remote server (OAuth): `needed` (it answered 401, or a call needs more
 * access), `waiting` (the authorization page is open), `failed` (with the reason),
 * `signedIn` (tokens are saved), `none` (no sign-in known).
 */
export const McpSignInStatus = z.enum(['none', 'needed', 'waiting', 'failed', 'signedIn']);
export type McpSignInStatus = z.infer<typeof McpSignInStatus>;

export const McpServerView = z.object({
  name: z.string(),
  transport: McpTransport,
  command: z.string(),
  args: z.array(z.string()),
  /** Masked values, e.g. `••••1234`. */
  env: StringMap,
  cwd: z.string(),
  url: z.string(),
  /** Masked values, e.g. `Bearer ••••1234`. */
  headers: StringMap,
  timeoutSec: z.number().int(),
  /** The exact command line or URL the server runs as (env values masked). */
  launch: z.string(),
  enabled: z.boolean(),
  /** "Run tools without asking". */
  trusted: z.boolean(),
  /** The user marked every tool of this server read-only (usable while a plan is reviewed). */
  readOnly: z.boolean(),
  state: McpServerState,
  /** Why it is in the error state, and the last lines of its stderr. */
  error: z.string().nullable(),
  stderr: z.array(z.string()),
  tools: z.array(McpToolView),
  signIn: McpSignInStatus.default('none'),
  /** While `waiting`: the authorization page, to open again. */
  signInUrl: z.string().nullable().default(null),
  /** While `failed`: why, in words the user can act on. */
  signInError: z.string().nullable().default(null),
});
export type McpServerView = z.infer<typeof McpServerView>;

/** A server's log messages (the last 500), oldest first, and how many older ones were let go. */
export const McpLog = z.object({
  entries: z.array(z.object({ at: z.number(), level: z.string(), logger: z.string().nullable(), text: z.string() })),
  dropped: z.number().int(),
});
export type McpLog = z.infer<typeof McpLog>;

export const McpState = z.object({
  servers: z.array(McpServerView),
  /** The last problem reading `mcp.json` (the last good configuration stays in force). */
  configError: z.string().nullable(),
});
export type McpState = z.infer<typeof McpState>;

export const ApprovalDecision = z.enum(['once', 'always', 'deny']);
export type ApprovalDecision = z.infer<typeof ApprovalDecision>;

/** A tool call waiting for the user. */
export const Approval = z.object({
  id: z.string(),
  /** The conversation the user sees (the parent, for a worker). */
  conversationId: z.string(),
  /** Where the call's card lives (a worker's own transcript for a worker). */
  transcriptId: z.string(),
  agentId: z.string(),
  /** "Worker 2", or "The assistant" for the main agent. */
  agentLabel: z.string(),
  toolCallId: z.string(),
  toolName: z.string(),
  server: z.string(),
  tool: z.string(),
  arguments: z.string(),
  createdAt: z.number().int(),
});
export type Approval = z.infer<typeof Approval>;

/** Progress a running tool reported (MCP `notifications/progress`). */
export const ToolProgress = z.object({
  conversationId: z.string(),
  toolCallId: z.string(),
  progress: z.number(),
  total: z.number().nullable(),
  message: z.string().nullable(),
});
export type ToolProgress = z.infer<typeof ToolProgress>;

export const ToolImage = z.object({ mimeType: z.string(), data: z.string() });
export type ToolImage = z.infer<typeof ToolImage>;

export const ToolAttachment = z.object({
  uri: z.string(),
  name: z.string(),
  mimeType: z.string().nullable(),
  /** The text of an embedded text resource. */
  text: z.string().nullable(),
  /** A resource link (read from its server when opened) or an embedded resource (older rows: neither). */
  kind: z.enum(['link', 'embedded']).optional(),
  /** The server that returned it, for reading a link (`mcp:readResource`). */
  server: z.string().optional(),
  /** The base64 bytes of an embedded binary resource (null: too large to keep). */
  data: z.string().nullable().optional(),
  /** Bytes of an embedded binary resource. */
  size: z.number().int().min(0).optional(),
});
export type ToolAttachment = z.infer<typeof ToolAttachment>;

/** What an MCP call returned besides its text, shown in its card. */
export const ToolOutput = z.object({
  toolCallId: z.string(),
  images: z.array(ToolImage),
  attachments: z.array(ToolAttachment),
});
export type ToolOutput = z.infer<typeof ToolOutput>;

/**
 * Whether a model takes images. A guess from the name (the API does not say): the
 * multimodal families of the major providers and local vision models.
 */
export function modelSeesImages(model: string): boolean {
  return /gpt-4o|gpt-4\.1|gpt-4-turbo|gpt-5|o[134](-|$)|vision|claude|gemini|llava|pixtral|vl\b|-vl|qwen2\.5-vl|gemma-?3|llama-?3\.2-vision|llama-?4|minicpm-v|moondream/i.test(
    model,
  );
}

const BULLETS = '••••';

/** `sk-abcdef1234` → `••••1234`; `Bearer abc…1234` → `Bearer ••••1234`; short values → `••••`. */
export function maskSecret(value: string): string {
  const scheme = /^(Bearer|Basic|Token)\s+(.*)$/i.exec(value);
  if (scheme) return `${scheme[1]} ${maskSecret(scheme[2])}`;
  return value.length >= 12 ? `${BULLETS}${value.slice(-4)}` : BULLETS;
}

/** Names whose values are secrets wherever they appear (exports, logs, the renderer). */
export function looksSecret(key: string): boolean {
  return /key|token|secret|password|authorization|cookie|credential/i.test(key);
}
