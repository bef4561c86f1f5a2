import { Button, Checkbox, Group, Modal, ScrollArea, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { Skill, SkillItems } from '@kadai/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '../../ui/ErrorState.tsx';
import { errorMessage } from '../../ui/errors.ts';
import { notifyError, notifySuccess } from '../../ui/notify.ts';
import { skillCatalogueQuery } from './assessment.queries.ts';
import type { useAssessmentMutations } from './useAssessmentMutations.tsx';

type Kind = keyof SkillItems;

/** Adds or removes one id of one kind. */
export function toggleItem(items: SkillItems, kind: Kind, id: number, checked: boolean): SkillItems {
  const rest = items[kind].filter((item) => item !== id);
  return { ...items, [kind]: checked ? [...rest, id] : rest };
}

/**
 * Tags a skill on items of the course's catalogue: whole assignments, single test cases, quiz questions.
 * The list replaces what the skill was tagged on (one PUT).
 */
export function SkillItemsModal({
  courseId,
  skill,
  mutations,
  onClose,
}: {
  courseId: number;
  skill: Skill;
  mutations: ReturnType<typeof useAssessmentMutations>;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const catalogue = useQuery(skillCatalogueQuery(courseId));
  const [items, setItems] = useState<SkillItems>(skill.items);
  const has = (kind: Kind, id: number) => items[kind].includes(id);
  const check = (kind: Kind, id: number) => (event: React.ChangeEvent<HTMLInputElement>) => {
    const checked = event.currentTarget.checked;
    setItems((current) => toggleItem(current, kind, id, checked));
  };

  const save = () =>
    mutations.skillItems.mutate(
      { id: skill.id, body: items },
      {
        onSuccess: () => {
          notifySuccess(t('assessment.skills.itemsSaved', { name: skill.name }));
          onClose();
        },
        onError: (error) => notifyError(errorMessage(error, t)),
      },
    );

  const data = catalogue.data;
  return (
    <Modal opened onClose={onClose} size="lg" title={t('assessment.skills.itemsTitle', { name: skill.name })}>
      <Stack>
        <Text size="sm" c="dimmed">
          {t('assessment.skills.itemsHint')}
        </Text>
        {catalogue.isError ? (
          <ErrorState error={catalogue.error} onRetry={() => void catalogue.refetch()} />
        ) : !data ? (
          <Skeleton height={160} aria-busy="true" />
        ) : (
          <ScrollArea.Autosize mah="55vh" type="auto">
            <Stack gap="md">
              <Title order={3} size="h5">
                {t('assessment.skills.assignments')}
              </Title>
              {data.assignments.length === 0 ? (
                <Text c="dimmed">{t('assessment.skills.noAssignments')}</Text>
              ) : null}
              {data.assignments.map((assignment) => (
                <Stack key={`a${assignment.id}`} gap={4}>
                  <Checkbox
                    label={assignment.title}
                    checked={has('assignments', assignment.id)}
                    onChange={check('assignments', assignment.id)}
                  />
                  {assignment.test_cases.length > 0 ? (
                    <Stack
                      gap={4}
                      pl="xl"
                      role="group"
                      aria-label={t('assessment.skills.testCasesOf', { title: assignment.title })}
                    >
                      {assignment.test_cases.map((testCase) => (
                        <Checkbox
                          key={testCase.id}
                          size="xs"
                          label={t('assessment.skills.itemPoints', {
                            name: testCase.name,
                            points: testCase.points,
                          })}
                          checked={has('test_cases', testCase.id)}
                          onChange={check('test_cases', testCase.id)}
                        />
                      ))}
                    </Stack>
                  ) : null}
                </Stack>
              ))}
              <Title order={3} size="h5">
                {t('assessment.skills.quizzes')}
              </Title>
              {data.quizzes.length === 0 ? <Text c="dimmed">{t('assessment.skills.noQuizzes')}</Text> : null}
              {data.quizzes.map((quiz) => (
                <Stack key={`q${quiz.id}`} gap={4} role="group" aria-label={quiz.title}>
                  <Text size="sm" fw={600}>
                    {quiz.title}
                  </Text>
                  {quiz.questions.map((question) => (
                    <Checkbox
                      key={question.id}
                      size="xs"
                      pl="md"
                      label={t('assessment.skills.question', {
                        position: question.position + 1,
                        prompt:
                          question.prompt.length > 80 ? `${question.prompt.slice(0, 79)}…` : question.prompt,
                        points: question.points,
                      })}
                      checked={has('quiz_questions', question.id)}
                      onChange={check('quiz_questions', question.id)}
                    />
                  ))}
                </Stack>
              ))}
            </Stack>
          </ScrollArea.Autosize>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button onClick={save} loading={mutations.skillItems.isPending} disabled={!data}>
            {t('common.save')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
