// Questions an agent puts to the user and waits on: a worker's `ask_user`, later MCP
// tool-call approvals and elicitations. One shape for all of them, so the renderer shows
// every pending question the same way (a banner with the asking agent's name).
import { z } from 'zod';
import { ConversationId, MessageContent } from './domain';

export const QuestionAction = z.object({
  /** What the asker gets back, e.g. `allow-once`. */
  id: z.string().min(1).max(100),
  /** The button's text, e.g. "Allow once". */
  label: z.string().min(1).max(100),
  /** `danger` for refusing actions ("Deny"), `primary` for the expected one. */
  tone: z.enum(['primary', 'danger', 'neutral']).default('neutral'),
});
export type QuestionAction = z.infer<typeof QuestionAction>;

/** A labelled fact shown under the question, e.g. { label: 'Tool', value: 'write_file' }. */
export const QuestionDetail = z.object({ label: z.string().max(100), value: z.string().max(20_000) });
export type QuestionDetail = z.infer<typeof QuestionDetail>;

/** A value a form field holds: text, a number, a switch, or the chosen options of a multi-select. */
export const FieldValue = z.union([
  z.string().max(20_000),
  z.number(),
  z.boolean(),
  z.array(z.string().max(1000)).max(500),
]);
export type FieldValue = z.infer<typeof FieldValue>;

/** One field of a form question (an MCP elicitation): each kind has its own control. */
export const QuestionField = z.object({
  name: z.string(),
  label: z.string(),
  description: z.string(),
  required: z.boolean(),
  /** text (with `format`: email, uri, date, date-time), number, integer, boolean, choice (one), choices (several). */
  kind: z.enum(['text', 'number', 'integer', 'boolean', 'choice', 'choices']),
  format: z.string().nullable(),
  options: z.array(z.object({ value: z.string(), label: z.string() })),
  /** What the field holds when the form opens. */
  value: FieldValue.nullable(),
  minimum: z.number().nullable(),
  maximum: z.number().nullable(),
});
export type QuestionField = z.infer<typeof QuestionField>;

/** A page a server asks the user to open (MCP URL elicitation): shown with its host, opened only when the user chooses to. */
export const QuestionLink = z.object({
  url: z.string(),
  host: z.string(),
  /** The action whose button opens the page (and answers the question). */
  action: z.string(),
});

export const Question = z.object({
  id: z.string(),
  /** The conversation the question is shown in (a worker's parent conversation). */
  conversationId: ConversationId,
  /** `main` or the worker's owner id (`worker-2`). */
  agentId: z.string(),
  /** The asking agent as the user knows it: "Assistant", "Worker 2". */
  agentName: z.string(),
  /** The asking worker's transcript (its view shows the question too), or null for the main agent. */
  workerId: ConversationId.nullable(),
  /** The question itself, plain text. */
  text: z.string(),
  /** Free-text answer box with an Answer button (ask_user, elicitation). */
  freeText: z.boolean(),
  /** Named choices, one button each (approvals). Empty for a free-text-only question. */
  actions: z.array(QuestionAction),
  details: z.array(QuestionDetail),
  /** A form to fill in (answered with `kind: 'form'`), or null. */
  form: z.array(QuestionField).nullable().default(null),
  /** A page to open, or null. */
  link: QuestionLink.nullable().default(null),
  createdAt: z.number().int(),
  /**
   * An approval's tool call: the question is answered on that call's card, and the banner
   * only stands in for the card while it is out of view. Absent for other questions.
   */
  toolCallId: z.string().nullable().optional(),
});
export type Question = z.infer<typeof Question>;

/** What the user gives back: typed text, or one of the question's actions. */
export const QuestionReply = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('text'), text: MessageContent }),
  z.strictObject({ kind: z.literal('action'), actionId: z.string().min(1).max(100) }),
  /** A form question's values, by field name. */
  z.strictObject({ kind: z.literal('form'), values: z.record(z.string().max(200), FieldValue) }),
]);
export type QuestionReply = z.infer<typeof QuestionReply>;

/** How an `ask_user` tool result starts; the transcript shows what follows as the user's answer. */
export const ANSWER_PREFIX = 'The user answered: ';
/** The `ask_user` tool result when the question was cancelled (Stop, Esc). */
export const CANCELLED_ANSWER = 'cancelled by user';

/** The values a form opens with: each field's default, where it has one. */
export function formDefaults(form: QuestionField[]): Record<string, FieldValue> {
  return Object.fromEntries(form.filter((f) => f.value !== null).map((f) => [f.name, f.value!]));
}

/**
 * Why a form's values cannot be accepted (a required field empty, a number out of range,
 * an option the field does not offer), or null. Main checks every answer with it; the
 * renderer shows the same words before sending.
 */
export function formProblem(form: QuestionField[], values: Record<string, FieldValue>): string | null {
  for (const field of form) {
    const value = values[field.name];
    const empty = value === undefined || value === '' || (Array.isArray(value) && value.length === 0);
    if (empty) {
      if (field.required) return `${field.label} is required.`;
      continue;
    }
    const options = field.options.map((o) => o.value);
    switch (field.kind) {
      case 'boolean':
        if (typeof value !== 'boolean') return `${field.label} must be on or off.`;
        break;
      case 'number':
      case 'integer': {
        if (typeof value !== 'number' || !Number.isFinite(value)) return `${field.label} must be a number.`;
        if (field.kind === 'integer' && !Number.isInteger(value)) return `${field.label} must be a whole number.`;
        if (field.minimum !== null && value < field.minimum) return `${field.label} must be at least ${field.minimum}.`;
        if (field.maximum !== null && value > field.maximum) return `${field.label} must be at most ${field.maximum}.`;
        break;
      }
      case 'choice':
        if (typeof value !== 'string' || !options.includes(value))
          return `${field.label} must be one of ${options.join(', ')}.`;
        break;
      case 'choices': {
        if (!Array.isArray(value) || value.some((v) => !options.includes(v)))
          return `${field.label} must be chosen from ${options.join(', ')}.`;
        if (field.minimum !== null && value.length < field.minimum)
          return `Choose at least ${field.minimum} for ${field.label}.`;
        if (field.maximum !== null && value.length > field.maximum)
          return `Choose at most ${field.maximum} for ${field.label}.`;
        break;
      }
      default:
        if (typeof value !== 'string') return `${field.label} must be text.`;
        if (field.minimum !== null && value.length < field.minimum)
          return `${field.label} must be at least ${field.minimum} characters.`;
        if (field.maximum !== null && value.length > field.maximum)
          return `${field.label} must be at most ${field.maximum} characters.`;
    }
  }
  return null;
}
