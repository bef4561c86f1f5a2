import { ActionIcon, Button, Group, Skeleton, Stack, Table, Text, Tooltip } from '@mantine/core';
import { IconEdit, IconPlus, IconTags, IconTrash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { Skill } from '@kadai/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '../../ui/ErrorState.tsx';
import { skillsQuery } from './assessment.queries.ts';
import { SkillEditorModal } from './SkillEditorModal.tsx';
import { SkillItemsModal } from './SkillItemsModal.tsx';
import { useAssessmentMutations } from './useAssessmentMutations.tsx';

type Dialog = { kind: 'edit'; skill: Skill | null } | { kind: 'items'; skill: Skill } | null;

function itemCount(skill: Skill): number {
  return skill.items.assignments.length + skill.items.test_cases.length + skill.items.quiz_questions.length;
}

/** Editors: the course's skills; create, rename, change the type, tag on items, delete. */
export function SkillsPanel({ courseId }: { courseId: number }) {
  const { t } = useTranslation();
  const skills = useQuery(skillsQuery(courseId));
  const mutations = useAssessmentMutations(courseId);
  const [dialog, setDialog] = useState<Dialog>(null);
  const list = skills.data?.results;
  const types = [...new Set((list ?? []).map((skill) => skill.skill_type))];

  if (skills.isError) return <ErrorState error={skills.error} onRetry={() => void skills.refetch()} />;

  return (
    <Stack>
      <Group justify="space-between" align="flex-end">
        <Text size="sm" c="dimmed" maw={560}>
          {t('assessment.skills.intro')}
        </Text>
        <Button
          leftSection={<IconPlus size={16} aria-hidden />}
          onClick={() => setDialog({ kind: 'edit', skill: null })}
        >
          {t('assessment.skills.new')}
        </Button>
      </Group>
      {!list ? (
        <Skeleton height={120} aria-busy="true" />
      ) : list.length === 0 ? (
        <Text c="dimmed">{t('assessment.skills.empty')}</Text>
      ) : (
        <Table.ScrollContainer minWidth={480}>
          <Table withTableBorder>
            <Table.Caption>{t('assessment.skills.caption', { count: list.length })}</Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('assessment.skills.name')}</Table.Th>
                <Table.Th scope="col">{t('assessment.skills.type')}</Table.Th>
                <Table.Th scope="col">{t('assessment.skills.tagged')}</Table.Th>
                <Table.Th scope="col">{t('assessment.skills.actions')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.map((skill) => (
                <Table.Tr key={skill.id}>
                  <Table.Th scope="row" fw={400}>
                    <Text size="sm">{skill.name}</Text>
                    {skill.description ? (
                      <Text size="xs" c="dimmed" lineClamp={2}>
                        {skill.description}
                      </Text>
                    ) : null}
                  </Table.Th>
                  <Table.Td>{skill.skill_type}</Table.Td>
                  <Table.Td>
                    <Text size="sm" c={itemCount(skill) === 0 ? 'dimmed' : undefined}>
                      {t('assessment.skills.itemCount', { count: itemCount(skill) })}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Group gap={4} wrap="nowrap">
                      <Tooltip label={t('assessment.skills.tagItems', { name: skill.name })}>
                        <ActionIcon
                          variant="subtle"
                          aria-label={t('assessment.skills.tagItems', { name: skill.name })}
                          onClick={() => setDialog({ kind: 'items', skill })}
                        >
                          <IconTags size={16} aria-hidden />
                        </ActionIcon>
                      </Tooltip>
                      <Tooltip label={t('assessment.skills.edit', { name: skill.name })}>
                        <ActionIcon
                          variant="subtle"
                          aria-label={t('assessment.skills.edit', { name: skill.name })}
                          onClick={() => setDialog({ kind: 'edit', skill })}
                        >
                          <IconEdit size={16} aria-hidden />
                        </ActionIcon>
                      </Tooltip>
                      <Tooltip label={t('assessment.skills.delete', { name: skill.name })}>
                        <ActionIcon
                          variant="subtle"
                          color="red"
                          aria-label={t('assessment.skills.delete', { name: skill.name })}
                          onClick={() => mutations.confirmDeleteSkill(skill)}
                        >
                          <IconTrash size={16} aria-hidden />
                        </ActionIcon>
                      </Tooltip>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {dialog?.kind === 'edit' ? (
        <SkillEditorModal
          courseId={courseId}
          skill={dialog.skill}
          types={types}
          mutations={mutations}
          onClose={() => setDialog(null)}
        />
      ) : null}
      {dialog?.kind === 'items' ? (
        <SkillItemsModal
          courseId={courseId}
          skill={dialog.skill}
          mutations={mutations}
          onClose={() => setDialog(null)}
        />
      ) : null}
    </Stack>
  );
}
