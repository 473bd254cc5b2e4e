// A server's `elicitation/create` as a question to the user (the same UI as `ask_user`):
// the message, one line per requested field, a free-text answer and a Decline button.
// One field takes the answer as it is; several take `name: value` lines or a JSON object.
import type { ElicitRequest, ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { agentLabel } from '../approvals/approvals';
import type { Questions } from '../questions/questionModule';

type Params = ElicitRequest['params'];
type Value = string | number | boolean | string[];
interface Field {
  type?: string;
  title?: string;
  description?: string;
  enum?: unknown[];
  default?: unknown;
}

export type ElicitAnswer =
  | { kind: 'text'; text: string }
  | { kind: 'action'; actionId: string }
  | { kind: 'cancelled' };

export const DECLINE = 'decline';

function fields(params: Params): Array<[string, Field]> {
  if (!('requestedSchema' in params) || !params.requestedSchema) return [];
  return Object.entries(params.requestedSchema.properties ?? {}) as Array<[string, Field]>;
}

function required(params: Params): string[] {
  return 'requestedSchema' in params ? (params.requestedSchema?.required ?? []) : [];
}

/** The question's text and details. */
export function elicitationQuestion(
  server: string,
  params: Params,
): { text: string; details: Array<{ label: string; value: string }> } {
  if (params.mode === 'url') {
    return { text: `The MCP server "${server}" asks you to open ${params.url}: ${params.message}`, details: [] };
  }
  const list = fields(params);
  const need = new Set(required(params));
  const details = list.map(([name, field]) => ({
    label: `${name}${need.has(name) ? ' (required)' : ''}`,
    value: [
      field.type ?? 'text',
      field.enum ? `one of ${field.enum.map(String).join(', ')}` : '',
      field.description ?? field.title ?? '',
      field.default !== undefined ? `default ${JSON.stringify(field.default)}` : '',
    ]
      .filter(Boolean)
      .join(' · '),
  }));
  const how = list.length > 1 ? ' Answer with one "name: value" line per field (or a JSON object).' : '';
  return { text: `The MCP server "${server}" asks: ${params.message}${how}`, details };
}

function coerce(field: Field, raw: string): Value | undefined {
  const text = raw.trim();
  if (field.type === 'boolean') {
    if (/^(true|yes|y|1|on)$/i.test(text)) return true;
    if (/^(false|no|n|0|off)$/i.test(text)) return false;
    return undefined;
  }
  if (field.type === 'number' || field.type === 'integer') {
    const n = Number(text);
    return text !== '' && Number.isFinite(n) ? n : undefined;
  }
  if (field.enum && !field.enum.map(String).includes(text)) return undefined;
  return text;
}

function parseLines(text: string): Record<string, string> {
  try {
    const json: unknown = JSON.parse(text);
    if (json && typeof json === 'object' && !Array.isArray(json)) {
      return Object.fromEntries(
        Object.entries(json).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]),
      );
    }
  } catch {
    // Not JSON: lines.
  }
  const out: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const at = line.indexOf(':');
    if (at > 0) out[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  }
  return out;
}

/** The user's answer → what the server gets. An answer that does not fit is a cancel. */
export function elicitationResult(params: Params, answer: ElicitAnswer): ElicitResult {
  if (answer.kind === 'cancelled') return { action: 'cancel' };
  if (answer.kind === 'action') return { action: answer.actionId === DECLINE ? 'decline' : 'cancel' };
  if (params.mode === 'url') return { action: 'accept' };
  const list = fields(params);
  const given = list.length === 1 ? { [list[0][0]]: answer.text } : parseLines(answer.text);
  const content: Record<string, Value> = {};
  for (const [name, field] of list) {
    const raw = given[name];
    if (raw === undefined || raw.trim() === '') continue;
    const value = coerce(field, raw);
    if (value === undefined) return { action: 'cancel' };
    content[name] = value;
  }
  if (required(params).some((name) => !(name in content))) return { action: 'cancel' };
  return { action: 'accept', content };
}

/** Puts the elicitation to the user who made the call (a worker's in its parent conversation). */
export async function askElicitation(
  questions: Questions,
  caller: { conversationId: string; agentId: string; transcriptId?: string; server: string },
  params: Params,
  signal: AbortSignal,
): Promise<ElicitResult> {
  const transcriptId = caller.transcriptId ?? caller.conversationId;
  const url = params.mode === 'url';
  const outcome = await questions.ask({
    conversationId: caller.conversationId,
    agentId: caller.agentId,
    agentName: caller.agentId === 'main' ? 'Assistant' : agentLabel(caller.agentId),
    workerId: transcriptId !== caller.conversationId ? transcriptId : null,
    ...elicitationQuestion(caller.server, params),
    freeText: !url,
    actions: url
      ? [
          { id: 'open', label: 'Done' },
          { id: DECLINE, label: 'Decline' },
        ]
      : [{ id: DECLINE, label: 'Decline' }],
    signal,
  });
  if (url && outcome.kind === 'action' && outcome.actionId === 'open') return { action: 'accept' };
  return elicitationResult(params, outcome.kind === 'cancelled' ? { kind: 'cancelled' } : outcome);
}
