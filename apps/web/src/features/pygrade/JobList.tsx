import { Anchor, Group, Paper, Stack, Table, Text } from '@mantine/core';
import type { GradingJob } from '@kadai/contracts';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { coursePath, pathTo } from '../../routes/route-table.ts';
import { useFormatters } from '../../i18n/format.ts';
import { StatusBadge } from '../submissions/StatusBadge.tsx';
import { Fact } from './Fact.tsx';
import { useShowsCards } from './layout.ts';
import classes from './PyGrade.module.css';

export type JobListKind = 'running' | 'recent';

/** What each list shows besides the submission, assignment, course and status. */
const TIMES: Record<JobListKind, ('queued_at' | 'started_at' | 'graded_at')[]> = {
  running: ['queued_at', 'started_at'],
  recent: ['started_at', 'graded_at'],
};
const TIME_LABEL = { queued_at: 'queued', started_at: 'started', graded_at: 'graded' } as const;

/**
 * Grading jobs: a table on wide screens, cards on narrow ones. The submission number opens the
 * submission and the course name the course (the caller edits it, or is staff).
 */
export function JobList({ jobs, kind, label }: { jobs: GradingJob[]; kind: JobListKind; label: string }) {
  const { t } = useTranslation();
  const showsCards = useShowsCards();
  if (jobs.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        {t(`pygrade.${kind}.empty`)}
      </Text>
    );
  }
  return showsCards ? (
    <JobCards jobs={jobs} kind={kind} label={label} />
  ) : (
    <JobTable jobs={jobs} kind={kind} label={label} />
  );
}

function useJobCells() {
  const { t } = useTranslation();
  const format = useFormatters();
  return {
    submission: (job: GradingJob) => (
      <Anchor
        component={Link}
        size="sm"
        fw={600}
        to={pathTo('SubmissionDetail', { course_id: job.course_id, submission_id: job.submission_id })}
      >
        {t('submissions.number', { id: job.submission_id })}
      </Anchor>
    ),
    course: (job: GradingJob) => (
      <Anchor component={Link} size="sm" to={coursePath(job.course_id)} className={classes.breakable}>
        {job.course_title}
      </Anchor>
    ),
    time: (value: string | null) => (value ? format.dateTime(value) : '–'),
    host: (job: GradingJob) => job.grader_host ?? '–',
    score: (job: GradingJob) => (job.score === null ? '–' : `${job.score} / ${job.max_score ?? '–'}`),
  };
}

function JobTable({ jobs, kind, label }: { jobs: GradingJob[]; kind: JobListKind; label: string }) {
  const { t } = useTranslation();
  const cell = useJobCells();
  const times = TIMES[kind];
  return (
    <Table striped verticalSpacing="xs" aria-label={label}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t('pygrade.jobs.submission')}</Table.Th>
          <Table.Th>{t('pygrade.jobs.assignment')}</Table.Th>
          <Table.Th>{t('pygrade.jobs.course')}</Table.Th>
          <Table.Th>{t('pygrade.jobs.status')}</Table.Th>
          {times.map((time) => (
            <Table.Th key={time}>{t(`pygrade.jobs.${TIME_LABEL[time]}`)}</Table.Th>
          ))}
          <Table.Th>{t('pygrade.jobs.host')}</Table.Th>
          {kind === 'recent' ? <Table.Th ta="end">{t('pygrade.jobs.score')}</Table.Th> : null}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {jobs.map((job) => (
          <Table.Tr key={job.submission_id}>
            <Table.Td className={classes.nowrap}>{cell.submission(job)}</Table.Td>
            <Table.Td className={classes.breakable}>{job.assignment_title}</Table.Td>
            <Table.Td>{cell.course(job)}</Table.Td>
            <Table.Td>
              <div className={classes.fit}>
                <StatusBadge status={job.status} size="sm" />
              </div>
            </Table.Td>
            {times.map((time) => (
              <Table.Td key={time}>{cell.time(job[time])}</Table.Td>
            ))}
            <Table.Td className={classes.breakable}>{cell.host(job)}</Table.Td>
            {kind === 'recent' ? (
              <Table.Td ta="end" ff="monospace" className={classes.nowrap}>
                {cell.score(job)}
              </Table.Td>
            ) : null}
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

function JobCards({ jobs, kind, label }: { jobs: GradingJob[]; kind: JobListKind; label: string }) {
  const { t } = useTranslation();
  const cell = useJobCells();
  return (
    <Stack component="ul" gap="xs" aria-label={label} className={classes.cards}>
      {jobs.map((job) => (
        <Paper component="li" key={job.submission_id} withBorder radius="sm" p="sm">
          <Group justify="space-between" gap="xs" mb={4} wrap="nowrap">
            {cell.submission(job)}
            <StatusBadge status={job.status} size="sm" />
          </Group>
          <dl className={classes.facts}>
            <Fact term={t('pygrade.jobs.assignment')}>{job.assignment_title}</Fact>
            <Fact term={t('pygrade.jobs.course')}>{cell.course(job)}</Fact>
            {TIMES[kind].map((time) => (
              <Fact key={time} term={t(`pygrade.jobs.${TIME_LABEL[time]}`)}>
                {cell.time(job[time])}
              </Fact>
            ))}
            <Fact term={t('pygrade.jobs.host')}>{cell.host(job)}</Fact>
            {kind === 'recent' ? <Fact term={t('pygrade.jobs.score')}>{cell.score(job)}</Fact> : null}
          </dl>
        </Paper>
      ))}
    </Stack>
  );
}
