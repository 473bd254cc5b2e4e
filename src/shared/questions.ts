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
]);
export type QuestionReply = z.infer<typeof QuestionReply>;

/** How an `ask_user` tool result starts; the transcript shows what follows as the user's answer. */
export const ANSWER_PREFIX = 'The user answered: ';
/** The `ask_user` tool result when the question was cancelled (Stop, Esc). */
export const CANCELLED_ANSWER = 'cancelled by user';
