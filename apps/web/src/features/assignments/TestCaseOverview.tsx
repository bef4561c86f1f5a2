import { Accordion, Badge, Group, SimpleGrid, Skeleton, Stack, Text } from '@mantine/core';
import { IconEyeOff } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { TestCase } from '@kadai/contracts';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '../../ui/ErrorState.tsx';
import { OutputBlock } from '../../ui/OutputBlock.tsx';
import { Section } from '../../ui/Section.tsx';
import { DraftBadge, DraftNote } from './DraftBadge.tsx';
import { VisibilityBadge } from './VisibilityBadge.tsx';
import { testCasesQuery } from './assignments.queries.ts';
import { testCasePointsText } from './test-case-text.ts';

/** Whether the reader can see this test's input and expected output. */
function isShown(test: TestCase): boolean {
  return test.view === 'editor' ? test.kind === 'io' : test.revealed;
}

/** A pytest test's module, when the reader may read it (editors always; students once revealed). */
function shownTestModule(test: TestCase): string | null {
  if (test.kind !== 'pytest') return null;
  return test.view === 'editor' || test.revealed ? test.test_code : null;
}

/** The assignment's tests as the reader may see them: input and expected output where revealed. */
export function TestCaseOverview({ assignmentId, courseId }: { assignmentId: number; courseId: number }) {
  const { t } = useTranslation();
  const tests = useQuery(testCasesQuery(assignmentId, courseId));

  let body: React.ReactNode;
  if (tests.isError) body = <ErrorState error={tests.error} onRetry={() => void tests.refetch()} />;
  else if (!tests.data) body = <Skeleton height={80} />;
  else if (tests.data.results.length === 0) body = <Text size="sm">{t('assignments.tests.none')}</Text>;
  else {
    body = (
      <Accordion multiple variant="separated" chevronPosition="left">
        {tests.data.results.map((test) => (
          <Accordion.Item key={test.id} value={String(test.id)}>
            <Accordion.Control>
              <Group justify="space-between" gap="xs">
                <Text size="sm" fw={500}>
                  {test.name}
                </Text>
                <Group gap={6}>
                  {test.view === 'editor' && test.draft ? <DraftBadge /> : null}
                  {test.view === 'editor' || test.visibility !== 'visible' ? (
                    <VisibilityBadge
                      visibility={test.visibility}
                      muted={test.view === 'editor' && test.draft}
                    />
                  ) : null}
                  <Badge variant="light" color="gray">
                    {testCasePointsText(t, test)}
                  </Badge>
                </Group>
              </Group>
            </Accordion.Control>
            <Accordion.Panel>
              {test.view === 'editor' && test.draft ? <DraftNote /> : null}
              {shownTestModule(test) !== null ? (
                <OutputBlock
                  label={t('assignments.tests.testModule', { file: test.test_file_name })}
                  text={shownTestModule(test)}
                />
              ) : isShown(test) ? (
                <SimpleGrid cols={{ base: 1, sm: 2 }}>
                  <OutputBlock label={t('assignments.tests.stdin')} text={test.stdin} />
                  <OutputBlock label={t('assignments.tests.expected')} text={test.expected_stdout} />
                </SimpleGrid>
              ) : (
                <Group gap="xs">
                  <IconEyeOff size={16} aria-hidden />
                  <Text size="sm">
                    {test.view === 'editor'
                      ? t('assignments.tests.scriptTest')
                      : t('assignments.tests.hiddenNote')}
                  </Text>
                </Group>
              )}
            </Accordion.Panel>
          </Accordion.Item>
        ))}
      </Accordion>
    );
  }

  return (
    <Section title={t('assignments.tests.title')}>
      <Stack gap="xs">{body}</Stack>
    </Section>
  );
}
