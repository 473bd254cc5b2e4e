import type { Question } from '../../shared/questions';
import { followedCall, useQuery } from '../query/useQuery';

/** The questions agents of this conversation (main or workers) wait on, live. */
export function useQuestions(conversationId: string): Question[] {
  const [questions] = useQuery(
    followedCall({
      call: 'questions:list',
      params: { conversationId },
      event: 'questions:changed',
      pick: (change) => (change.conversationId === conversationId ? change.questions : undefined),
    }),
    [],
  );
  return questions;
}
