import { Alert, Anchor, Box, Group, Skeleton, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconClockExclamation } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { AssignmentCourseDetail } from '@kadai/contracts';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { pathTo } from '../../routes/route-table.ts';
import { useFormatters } from '../../i18n/format.ts';
import { Section } from '../../ui/Section.tsx';
import { Deadline } from '../../ui/Deadline.tsx';
import { ExtendedBadge } from '../extensions/ExtendedBadge.tsx';
import { availabilityOf } from './dates.ts';
import { totalScoreQuery } from './assignments.queries.ts';
import classes from './AssignmentFacts.module.css';

function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className={classes.fact}>
      <Text component="dt" size="sm" c="dimmed">
        {term}
      </Text>
      <Text component="dd" size="sm" fw={500}>
        {children}
      </Text>
    </div>
  );
}

/** Dates in this course (in the reader's time zone), whether submitting now is late, and my score. */
export function AssignmentFacts({ detail }: { detail: AssignmentCourseDetail }) {
  const { t } = useTranslation();
  const format = useFormatters();
  const { assignment, course } = detail;
  const score = useQuery(totalScoreQuery(assignment.id, course.course_id));
  const availability = availabilityOf(course);

  return (
    <Section title={t('assignments.detail.facts')}>
      <Stack gap="sm">
        <Box component="dl" m={0} className={classes.list}>
          <Fact term={t('assignments.fields.opensAt')}>
            <Deadline at={course.opens_at} />
          </Fact>
          <Fact term={t('assignments.fields.dueAt')}>
            <Group gap={6} component="span">
              <Deadline at={course.due_at} />
              <ExtendedBadge extended={course.extended} />
            </Group>
          </Fact>
          <Fact term={t('assignments.fields.lateUntil')}>
            {course.late_until ? <Deadline at={course.late_until} /> : t('assignments.detail.noLate')}
          </Fact>
          <Fact term={t('assignments.detail.myScore')}>
            {score.data ? (
              <Group gap={6} component="span">
                <span>
                  {t('assignments.detail.scoreOf', {
                    score: score.data.score === null ? '–' : format.number(score.data.score),
                    total: format.number(score.data.total_points),
                  })}
                </span>
                {score.data.submission_id !== null ? (
                  <Anchor
                    component={Link}
                    size="sm"
                    to={pathTo('SubmissionDetail', {
                      course_id: course.course_id,
                      submission_id: score.data.submission_id,
                    })}
                  >
                    {t('assignments.detail.countedSubmission', { id: score.data.submission_id })}
                  </Anchor>
                ) : null}
              </Group>
            ) : score.isError ? (
              '–'
            ) : (
              <Skeleton component="span" height={14} width={80} display="inline-block" />
            )}
          </Fact>
        </Box>
        {detail.is_late_period || availability === 'late' ? (
          <Alert color="orange" icon={<IconClockExclamation aria-hidden />} p="xs">
            <Text size="sm">
              {t('assignments.detail.latePeriod', {
                date: course.late_until ? format.deadline(course.late_until) : '',
              })}
            </Text>
          </Alert>
        ) : null}
        {!detail.accepts_submissions ? (
          <Alert color="gray" icon={<IconAlertTriangle aria-hidden />} p="xs">
            <Text size="sm">
              {availability === 'upcoming'
                ? t('assignments.detail.notOpenYet')
                : t('assignments.detail.closed')}
            </Text>
          </Alert>
        ) : null}
      </Stack>
    </Section>
  );
}
