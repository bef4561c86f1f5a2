import type { AnswerValue } from '@kadai/contracts';
import { useCallback, useState } from 'react';
import { clearDraft, restoreDraft, saveDraft, type Answers, type AskedQuestion } from './answers.ts';

/**
 * The answers of one attempt, kept in this tab's sessionStorage under `key` so a reload (or a crash of
 * the tab's page) does not lose them; they start from what was saved for these questions.
 */
export function useQuizAnswers(key: string, questions: readonly AskedQuestion[]) {
  const [answers, setAnswers] = useState<Answers>(() => restoreDraft(key, questions));

  const setAnswer = useCallback(
    (questionId: number, value: AnswerValue) =>
      setAnswers((previous) => {
        const next = { ...previous, [questionId]: value };
        saveDraft(key, next);
        return next;
      }),
    [key],
  );
  const clear = useCallback(() => clearDraft(key), [key]);
  return { answers, setAnswer, clear };
}
