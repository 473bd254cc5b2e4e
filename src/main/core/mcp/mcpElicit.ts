// A server's `elicitation/create` as a question to the user (the question banner): a form
// with one control per requested field (text, number, switch, choices), its defaults filled
// in, Submit and Decline; or, in URL mode, the page with its host and a button that opens it.
// A text answer (`name: value` lines or a JSON object) is still understood.
import type { ElicitRequest, ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import type { FieldValue, QuestionField } from '../../../shared/questions';
import { agentLabel } from '../approvals/approvalsModule';
import type { Questions } from '../questions/questionModule';

type Params = ElicitRequest['params'];
type Value = string | number | boolean | string[];
interface Option {
  const?: unknown;
  title?: string;
}
interface Field {
  type?: string;
  title?: string;
  description?: string;
  enum?: unknown[];
  enumNames?: unknown[];
  oneOf?: Option[];
  anyOf?: Option[];
  items?: { type?: string; enum?: unknown[]; anyOf?: Option[] };
  format?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  default?: unknown;
}

export type ElicitAnswer =
  | { kind: 'text'; text: string }
  | { kind: 'action'; actionId: string }
  | { kind: 'form'; values: Record<string, FieldValue> }
  | { kind: 'cancelled' };

export const DECLINE = 'decline';
/** URL mode: the user chose to open the page. */
export const OPEN = 'open';

function fields(params: Params): Array<[string, Field]> {
  if (!('requestedSchema' in params) || !params.requestedSchema) return [];
  return Object.entries(params.requestedSchema.properties ?? {}) as Array<[string, Field]>;
}

function required(params: Params): string[] {
  return 'requestedSchema' in params ? (params.requestedSchema?.required ?? []) : [];
}

function optionsOf(choices: { enum?: unknown[]; enumNames?: unknown[]; oneOf?: Option[]; anyOf?: Option[] }) {
  const titled = choices.oneOf ?? choices.anyOf;
  if (titled) return titled.map((o) => ({ value: String(o.const), label: o.title ?? String(o.const) }));
  return (choices.enum ?? []).map((v, i) => ({ value: String(v), label: String(choices.enumNames?.[i] ?? v) }));
}

const num = (value: number | undefined) => (typeof value === 'number' ? value : null);

function fieldValue(value: unknown): FieldValue | null {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  return Array.isArray(value) && value.every((v) => typeof v === 'string') ? value : null;
}

/** The requested schema as form fields, each with the control its type calls for and its default. */
export function elicitationForm(params: Params): QuestionField[] {
  const need = new Set(required(params));
  return fields(params).map(([name, field]) => {
    const multi = field.type === 'array';
    const options = multi ? optionsOf(field.items ?? {}) : optionsOf(field);
    const kind: QuestionField['kind'] = multi
      ? 'choices'
      : options.length
        ? 'choice'
        : field.type === 'number' || field.type === 'integer' || field.type === 'boolean'
          ? field.type
          : 'text';
    return {
      name,
      label: field.title ?? name,
      description: field.description ?? '',
      required: need.has(name),
      kind,
      format: kind === 'text' ? (field.format ?? null) : null,
      options,
      value: fieldValue(field.default),
      minimum: num(multi ? field.minItems : kind === 'text' ? field.minLength : field.minimum),
      maximum: num(multi ? field.maxItems : kind === 'text' ? field.maxLength : field.maximum),
    };
  });
}

/** `https://auth.example.com/…` → `auth.example.com`; the page's address as the user should judge it. */
export function linkOf(url: string): { url: string; host: string } | null {
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return null;
    return { url: parsed.href, host: parsed.host };
  } catch {
    return null;
  }
}

/** The question's text and details. */
export function elicitationQuestion(
  server: string,
  params: Params,
): { text: string; details: Array<{ label: string; value: string }> } {
  if (params.mode === 'url') {
    const link = linkOf(params.url);
    return {
      text: `The MCP server "${server}" asks you to open a page on ${link?.host ?? 'an address Stepwise cannot open'}: ${params.message}`,
      details: [{ label: 'Address', value: params.url }],
    };
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
  if (answer.kind === 'form') return { action: 'accept', content: formContent(params, answer.values) };
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

/** The form's values as the server asked for them: empty fields left out, the rest of the schema's types. */
function formContent(params: Params, values: Record<string, FieldValue>): Record<string, Value> {
  const content: Record<string, Value> = {};
  for (const field of elicitationForm(params)) {
    const value = values[field.name];
    if (value === undefined || value === '' || (Array.isArray(value) && !value.length && !field.required)) continue;
    content[field.name] = value;
  }
  return content;
}

/** Puts the elicitation to the user who made the call (a worker's in its parent conversation). */
export async function askElicitation(
  questions: Questions,
  caller: { conversationId: string; agentId: string; transcriptId?: string; server: string },
  params: Params,
  signal: AbortSignal,
): Promise<ElicitResult> {
  const transcriptId = caller.transcriptId ?? caller.conversationId;
  const link = params.mode === 'url' ? linkOf(params.url) : null;
  // A URL Stepwise cannot open (not http/https) is declined rather than shown as a link.
  if (params.mode === 'url' && !link) return { action: 'decline' };
  const outcome = await questions.ask({
    conversationId: caller.conversationId,
    agentId: caller.agentId,
    agentName: caller.agentId === 'main' ? 'Assistant' : agentLabel(caller.agentId),
    workerId: transcriptId !== caller.conversationId ? transcriptId : null,
    ...elicitationQuestion(caller.server, params),
    freeText: false,
    ...(link ? { link: { ...link, action: OPEN } } : { form: elicitationForm(params) }),
    // URL mode: the renderer opens the page only when the user presses "Open" (OPEN), then answers with it.
    actions: link
      ? [
          { id: OPEN, label: `Open ${link.host}`, tone: 'primary' as const },
          { id: DECLINE, label: 'Decline', tone: 'danger' as const },
        ]
      : [{ id: DECLINE, label: 'Decline', tone: 'danger' as const }],
    signal,
  });
  if (link && outcome.kind === 'action' && outcome.actionId === OPEN) return { action: 'accept' };
  return elicitationResult(params, outcome.kind === 'cancelled' ? { kind: 'cancelled' } : outcome);
}

type Caller = { conversationId: string; agentId: string; transcriptId?: string };

/** Asks each server's elicitations of the user who last called it; `close()` cancels the waiting ones. */
export function createElicitations(questions: Questions, lastUser: (server: string) => Caller | undefined) {
  const waiting = new Set<AbortController>();
  return {
    ask(server: string, params: Params, signal: AbortSignal): Promise<ElicitResult> {
      const user = lastUser(server);
      if (!user) return Promise.resolve({ action: 'cancel' as const });
      const controller = new AbortController();
      waiting.add(controller);
      return askElicitation(
        questions,
        { ...user, server },
        params,
        AbortSignal.any([signal, controller.signal]),
      ).finally(() => waiting.delete(controller));
    },
    close() {
      for (const controller of waiting) controller.abort();
    },
  };
}
