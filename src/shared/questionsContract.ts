// Questions agents ask the user (`ask_user`): this feature's part of the IPC contract
// (merged into shared/ipc.ts).
import { z } from 'zod';
import { call } from './contract';
import { ConversationId } from './domain';
import { Question, QuestionReply } from './questions';

export const questionCalls = {
  /** Every question an agent of the conversation (main or worker) waits on. */
  'questions:list': call(z.strictObject({ conversationId: ConversationId }), z.array(Question)),
  /** Answers a pending question with text or one of its actions; returns the conversation's questions still pending. */
  'questions:answer': call(
    z.strictObject({ questionId: z.string().max(100), reply: QuestionReply }),
    z.array(Question),
  ),
} as const;

export const questionEvents = {
  /** The questions agents of a conversation wait on changed (asked, answered, cancelled). */
  'questions:changed': z.object({ conversationId: ConversationId, questions: z.array(Question) }),
} as const;
