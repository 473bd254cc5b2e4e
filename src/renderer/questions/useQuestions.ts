import { useEffect, useState } from 'react';
import type { Question } from '../../shared/questions';
import { call, useApi, useEvent } from '../api/apiContext';

/** The questions agents of this conversation (main or workers) wait on, live. */
export function useQuestions(conversationId: string): Question[] {
  const api = useApi();
  const [questions, setQuestions] = useState<Question[]>([]);
  useEffect(() => {
    void call(api, 'questions:list', { conversationId }).then(setQuestions, () => {});
  }, [api, conversationId]);
  useEvent(
    'questions:changed',
    (change) => {
      if (change.conversationId === conversationId) setQuestions(change.questions);
    },
    [conversationId],
  );
  return questions;
}
