import { Anchor, Badge, Group, Paper, Text } from '@mantine/core';
import { IconBook2, IconMessageReport } from '@tabler/icons-react';
import type { EditorCourseOverview, OverviewGradingReason } from '@kadai/contracts';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { pathTo } from '../../routes/route-table.ts';
import { useFormatters } from '../../i18n/format.ts';
import { memberName } from '../courses/member-name.ts';
import { authorName } from '../forum/author-name.ts';
import { relativeTime } from '../forum/relative-time.ts';
import { HomeItem, HomeSection } from './HomeSection.tsx';
import { assignmentPath, forumPostPath, submissionPath, workPath } from './home-links.ts';
import classes from './CourseHome.module.css';

const REASON_COLOR: Record<OverviewGradingReason, string> = {
  queued_long: 'orange',
  executing_long: 'orange',
  internal_error: 'red',
  invalid_format: 'grape',
};

/** What editors of the course and staff see: grading to look at, deadlines, missing work, questions. */
export function EditorHome({ courseId, overview }: { courseId: number; overview: EditorCourseOverview }) {
  const { t, i18n } = useTranslation();
  const format = useFormatters();
  const now = new Date(overview.now);
  const ago = (iso: string) => relativeTime(iso, i18n.language, now);
  const course = { course_id: courseId };

  return (
    <>
      <Paper withBorder radius="md" p="md">
        <Group gap="md" wrap="wrap" justify="space-between">
          <Text>{t('courseHome.editor.students', { count: overview.student_count })}</Text>
          <Anchor component={Link} to={pathTo('Workbook', course)} className={classes.wrap}>
            <Group gap={6} wrap="nowrap" component="span">
              <IconBook2 size={18} aria-hidden />
              {t('courseHome.editor.liveSessions', { count: overview.open_workbook_sessions })}
            </Group>
          </Anchor>
          {overview.open_regrade_requests > 0 ? (
            <Anchor component={Link} to={pathTo('RegradeRequests', course)} className={classes.wrap}>
              <Group gap={6} wrap="nowrap" component="span">
                <IconMessageReport size={18} aria-hidden />
                {t('courseHome.editor.regrades', { count: overview.open_regrade_requests })}
              </Group>
            </Anchor>
          ) : null}
        </Group>
      </Paper>

      <div className={classes.grid}>
        <HomeSection
          title={t('courseHome.editor.grading')}
          count={overview.grading_attention.count}
          empty={t('courseHome.editor.gradingEmpty')}
          more={{ to: pathTo('Submission', course), label: t('courseHome.links.submissions') }}
        >
          {overview.grading_attention.results.map((item) => (
            <HomeItem
              key={item.submission_id}
              to={submissionPath(courseId, item.submission_id)}
              title={t('courseHome.editor.submissionTitle', {
                id: item.submission_id,
                title: item.assignment_title,
              })}
              badges={
                <Badge variant="light" color={REASON_COLOR[item.reason]}>
                  {t(`courseHome.editor.reason.${item.reason}`)}
                </Badge>
              }
            >
              {t('courseHome.editor.gradingLine', {
                name: memberName(item.student, i18n.language),
                when: ago(item.since),
              })}
              {item.message ? <div>{item.message}</div> : null}
            </HomeItem>
          ))}
        </HomeSection>

        <HomeSection
          title={t('courseHome.editor.closing')}
          count={overview.closing_soon.count}
          empty={t('courseHome.editor.closingEmpty')}
          more={{ to: pathTo('Assignment', course), label: t('courseHome.links.assignments') }}
        >
          {overview.closing_soon.results.map((item) => (
            <HomeItem
              key={`${item.kind}-${item.assignment_id ?? item.quiz_course_id}`}
              to={workPath(courseId, item)}
              title={item.title}
              badges={
                <Badge variant="outline" color="gray">
                  {t(`courseHome.kind.${item.kind}`)}
                </Badge>
              }
            >
              {t(item.kind === 'quiz' ? 'courseHome.closes' : 'courseHome.due', {
                date: format.deadline(item.due_at),
              })}
              <div>
                {t('courseHome.editor.handedIn', {
                  count: item.submitted_students,
                  total: item.student_count,
                })}
              </div>
            </HomeItem>
          ))}
        </HomeSection>

        <HomeSection
          title={t('courseHome.editor.missing')}
          count={overview.missing_submissions.count}
          empty={t('courseHome.editor.missingEmpty')}
          more={{ to: pathTo('Submission', course), label: t('courseHome.links.submissions') }}
        >
          {overview.missing_submissions.results.map((item) => {
            const names = item.students.map((student) => memberName(student, i18n.language));
            const others = item.missing_count - names.length;
            return (
              <HomeItem
                key={item.assignment_id}
                to={assignmentPath(courseId, item.assignment_id)}
                title={item.title}
                badges={
                  <>
                    <Badge variant="light" color="red">
                      {t('courseHome.editor.missingCount', { count: item.missing_count })}
                    </Badge>
                    {item.accepts_late ? (
                      <Badge variant="light" color="orange">
                        {t('courseHome.editor.acceptsLate')}
                      </Badge>
                    ) : null}
                  </>
                }
              >
                {t('courseHome.editor.wasDue', { date: format.deadline(item.due_at) })}
                <div>
                  {others > 0
                    ? t('courseHome.editor.namesAndMore', { names: names.join(', '), count: others })
                    : names.join(', ')}
                </div>
              </HomeItem>
            );
          })}
        </HomeSection>

        <HomeSection
          title={t('courseHome.editor.questions')}
          count={overview.unanswered_questions.count}
          empty={t('courseHome.editor.questionsEmpty')}
          more={{ to: `${pathTo('Forum', course)}?tab=discussion`, label: t('courseHome.links.forum') }}
        >
          {overview.unanswered_questions.results.map((topic) => (
            <HomeItem key={topic.id} to={forumPostPath(courseId, topic.id)} title={topic.title}>
              {t('courseHome.byWhen', {
                name: authorName(topic.author, i18n.language),
                when: ago(topic.created_at),
              })}
              {' · '}
              {t('courseHome.editor.comments', { count: topic.comment_count })}
            </HomeItem>
          ))}
        </HomeSection>
      </div>
    </>
  );
}
