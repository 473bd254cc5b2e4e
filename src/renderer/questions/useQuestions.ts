import type { Question } from '../../shared/questions';
import { useFollowed } from '../common/useFollowed';

/** The questions agents of this conversation (main or workers) wait on, live. */
export function useQuestions(conversationId: string): Question[] {
  const [questions] = useFollowed(
    {
      call: 'questions:list',
      params: { conversationId },
      event: 'questions:changed',
      pick: (change) => (change.conversationId === conversationId ? change.questions : undefined),
    },
    [],
  );
  return questions;
}
