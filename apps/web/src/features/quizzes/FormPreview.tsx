import { Alert, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Markdown } from '../../ui/Markdown.tsx';
import { QuizPreview, type PreviewQuestion } from './QuizPreview.tsx';
import { questionProblem, toQuestionInput, type QuizFormValues } from './quiz-form.ts';

/** The quiz being edited as a student will see it; questions still incomplete are left out (and counted). */
export function FormPreview({ values }: { values: QuizFormValues }) {
  const { t } = useTranslation();
  const questions: PreviewQuestion[] = [];
  let incomplete = 0;
  values.questions.forEach((question, index) => {
    if (questionProblem(question) !== null) {
      incomplete += 1;
      return;
    }
    const input = toQuestionInput(question);
    questions.push({
      // Not saved yet: the position stands in for the id.
      id: index + 1,
      kind: input.kind,
      prompt: input.prompt,
      points: input.points,
      options: input.options,
      answer_key: input.answer_key,
      explanation: input.explanation,
    });
  });
  return (
    <Stack gap="md">
      <Title order={2} size="h3">
        {values.title.trim() || t('quiz.editor.untitled')}
      </Title>
      {values.description.trim() ? <Markdown source={values.description} /> : null}
      {incomplete > 0 ? (
        <Alert color="orange" icon={<IconAlertTriangle aria-hidden />} p="xs">
          <Text size="sm">{t('quiz.editor.incompleteLeftOut', { count: incomplete })}</Text>
        </Alert>
      ) : null}
      {questions.length > 0 ? <QuizPreview questions={questions} headingOrder={3} /> : null}
    </Stack>
  );
}
