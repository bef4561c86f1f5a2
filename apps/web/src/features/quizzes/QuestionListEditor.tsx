import { ActionIcon, Alert, Badge, Button, Group, Menu, Paper, Stack, Text, Title } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconLock, IconPlus, IconTrash } from '@tabler/icons-react';
import { MAX_QUESTIONS, QUESTION_KINDS } from '@kadai/contracts';
import { Controller, useFieldArray, type UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Markdown } from '../../ui/Markdown.tsx';
import { useAnswerText } from './answer-text.ts';
import { QuestionEditor } from './QuestionEditor.tsx';
import { emptyQuestion, questionProblem, toQuestionInput, type QuizFormValues } from './quiz-form.ts';

/**
 * The questions: each in its own box with move up, move down and delete (buttons, not dragging), and
 * "Add question" by kind. Once a student has submitted, the questions are shown read-only: changing
 * them would make stored scores wrong, and the server refuses it.
 */
export function QuestionListEditor({
  form,
  locked,
  submissionCount,
}: {
  form: UseFormReturn<QuizFormValues>;
  locked: boolean;
  submissionCount: number;
}) {
  const { t } = useTranslation();
  const { fields, append, remove, move } = useFieldArray({ control: form.control, name: 'questions' });

  if (locked) return <LockedQuestions form={form} submissionCount={submissionCount} />;

  return (
    <Stack gap="md" component="section" aria-labelledby="quiz-editor-questions">
      <Title order={2} size="h4" id="quiz-editor-questions">
        {t('quiz.editor.questions', { count: fields.length })}
      </Title>
      {fields.map((field, index) => (
        <Paper
          key={field.id}
          withBorder
          radius="md"
          p="md"
          component="section"
          aria-labelledby={`question-${field.id}`}
        >
          <Stack gap="sm">
            <Group justify="space-between" gap="xs">
              <Title order={3} size="h5" id={`question-${field.id}`}>
                {t('quiz.question.heading', { number: index + 1 })}
              </Title>
              <Group gap={4}>
                <ActionIcon
                  variant="default"
                  aria-label={t('quiz.editor.moveUp', { number: index + 1 })}
                  disabled={index === 0}
                  onClick={() => move(index, index - 1)}
                >
                  <IconArrowUp size={16} aria-hidden />
                </ActionIcon>
                <ActionIcon
                  variant="default"
                  aria-label={t('quiz.editor.moveDown', { number: index + 1 })}
                  disabled={index === fields.length - 1}
                  onClick={() => move(index, index + 1)}
                >
                  <IconArrowDown size={16} aria-hidden />
                </ActionIcon>
                <ActionIcon
                  variant="default"
                  color="red"
                  aria-label={t('quiz.editor.deleteQuestion', { number: index + 1 })}
                  disabled={fields.length === 1}
                  onClick={() => remove(index)}
                >
                  <IconTrash size={16} aria-hidden />
                </ActionIcon>
              </Group>
            </Group>
            <Controller
              control={form.control}
              name={`questions.${index}`}
              rules={{
                validate: (question) => {
                  const problem = questionProblem(question);
                  return problem === null || t(problem);
                },
              }}
              render={({ field: question, fieldState }) => (
                <QuestionEditor
                  number={index + 1}
                  value={question.value}
                  onChange={question.onChange}
                  error={fieldState.error?.message}
                />
              )}
            />
          </Stack>
        </Paper>
      ))}
      <Group>
        <Menu position="bottom-start">
          <Menu.Target>
            <Button
              variant="light"
              leftSection={<IconPlus size={16} aria-hidden />}
              disabled={fields.length >= MAX_QUESTIONS}
            >
              {t('quiz.editor.addQuestion')}
            </Button>
          </Menu.Target>
          <Menu.Dropdown>
            {QUESTION_KINDS.map((kind) => (
              <Menu.Item key={kind} onClick={() => append(emptyQuestion(kind))}>
                {t(`quiz.kinds.${kind}`)}
              </Menu.Item>
            ))}
          </Menu.Dropdown>
        </Menu>
      </Group>
    </Stack>
  );
}

function LockedQuestions({
  form,
  submissionCount,
}: {
  form: UseFormReturn<QuizFormValues>;
  submissionCount: number;
}) {
  const { t } = useTranslation();
  const text = useAnswerText();
  const questions = form.getValues('questions');
  return (
    <Stack gap="md" component="section" aria-labelledby="quiz-editor-questions">
      <Title order={2} size="h4" id="quiz-editor-questions">
        {t('quiz.editor.questions', { count: questions.length })}
      </Title>
      <Alert color="orange" icon={<IconLock aria-hidden />} title={t('quiz.editor.lockedTitle')}>
        <Text size="sm">{t('quiz.editor.locked', { count: submissionCount })}</Text>
      </Alert>
      {questions.map((question, index) => {
        const input = toQuestionInput(question);
        const asked = { id: index + 1, kind: input.kind, options: input.options };
        return (
          <Paper key={index} withBorder radius="md" p="md">
            <Stack gap="xs">
              <Group justify="space-between" gap="xs">
                <Title order={3} size="h5">
                  {t('quiz.question.heading', { number: index + 1 })}
                </Title>
                <Group gap={6}>
                  <Badge variant="light" color="gray">
                    {t(`quiz.kinds.${input.kind}`)}
                  </Badge>
                  <Badge variant="light">{t('quiz.question.points', { count: input.points })}</Badge>
                </Group>
              </Group>
              <Markdown source={input.prompt} />
              <Text size="sm">
                <Text span fw={600} size="sm">
                  {t('quiz.review.correctAnswer')}:{' '}
                </Text>
                {text.key(asked, input.answer_key)}
              </Text>
            </Stack>
          </Paper>
        );
      })}
    </Stack>
  );
}
