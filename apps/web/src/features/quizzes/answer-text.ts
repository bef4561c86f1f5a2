import type { AnswerKey, AnswerValue } from '@kadai/contracts';
import { useTranslation } from 'react-i18next';
import type { AskedQuestion } from './answers.ts';

/** Answers and answer keys as text a person reads (option texts rather than their ids). */
export function useAnswerText() {
  const { t, i18n } = useTranslation();
  // A number as written, without grouping: 1024, not 1,024 (an answer, not an amount).
  const plain = (value: number) =>
    new Intl.NumberFormat(i18n.language, { useGrouping: false, maximumFractionDigits: 10 }).format(value);

  const optionText = (question: AskedQuestion, id: string) =>
    question.options.find((option) => option.id === id)?.text ?? id;
  const list = (question: AskedQuestion, ids: readonly string[]) =>
    ids.map((id) => optionText(question, id)).join(t('quiz.review.listSeparator'));
  const ordered = (question: AskedQuestion, ids: readonly string[]) =>
    ids.map((id, index) => `${index + 1}. ${optionText(question, id)}`).join(' → ');

  /** The student's answer; "No answer" for null. */
  const answer = (question: AskedQuestion, value: AnswerValue | undefined): string => {
    if (value === undefined || value === null) return t('quiz.review.noAnswer');
    if (typeof value === 'boolean') return value ? t('quiz.question.true') : t('quiz.question.false');
    if (typeof value === 'number') return plain(value);
    if (Array.isArray(value)) {
      if (value.length === 0) return t('quiz.review.noAnswer');
      return question.kind === 'ordering' ? ordered(question, value) : list(question, value);
    }
    return question.kind === 'single' ? optionText(question, value) : value;
  };

  /** The correct answer of a key, for the kind of its question. */
  const key = (question: AskedQuestion, answerKey: AnswerKey): string => {
    if ('order' in answerKey) return ordered(question, answerKey.order);
    if ('accepted' in answerKey) {
      const accepted = answerKey.accepted.join(t('quiz.review.orSeparator'));
      const notes = [
        answerKey.mode === 'pattern' ? t('quiz.review.pattern') : null,
        answerKey.case_sensitive ? t('quiz.review.caseSensitive') : null,
      ].filter((note) => note !== null);
      return notes.length > 0 ? `${accepted} (${notes.join(t('quiz.review.listSeparator'))})` : accepted;
    }
    if ('tolerance' in answerKey) {
      return answerKey.tolerance > 0
        ? t('quiz.review.numberWithTolerance', {
            value: plain(answerKey.value),
            tolerance: plain(answerKey.tolerance),
          })
        : plain(answerKey.value);
    }
    const correct = answerKey.correct;
    if (typeof correct === 'boolean') return correct ? t('quiz.question.true') : t('quiz.question.false');
    if (Array.isArray(correct)) return list(question, correct);
    return optionText(question, correct);
  };

  return { answer, key };
}
