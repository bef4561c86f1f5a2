import { Badge } from '@mantine/core';
import type { MyWorkStatus, OverviewDueItem, StudentCourseOverview } from '@kadai/contracts';
import { useTranslation } from 'react-i18next';
import { pathTo } from '../../routes/route-table.ts';
import { useFormatters } from '../../i18n/format.ts';
import { StatusBadge } from '../submissions/StatusBadge.tsx';
import { authorName } from '../forum/author-name.ts';
import { relativeTime } from '../forum/relative-time.ts';
import { OUTCOME_COLOR, scoreOutcome } from '../submissions/test-results.ts';
import { HomeItem, HomeSection } from './HomeSection.tsx';
import {
  eventPath,
  forumPostPath,
  quizPath,
  quizSubmissionPath,
  submissionPath,
  workPath,
} from './home-links.ts';
import classes from './CourseHome.module.css';

const STATUS_COLOR: Record<MyWorkStatus, string> = {
  not_submitted: 'red',
  in_progress: 'blue',
  submitted: 'gray',
  graded: 'green',
};

function WorkStatus({ item }: { item: OverviewDueItem }) {
  const { t } = useTranslation();
  const outcome = item.status === 'graded' ? scoreOutcome('Completed', item.score, item.max_score) : null;
  const label =
    item.status === 'graded' && item.score !== null && item.max_score !== null
      ? t('courseHome.status.gradedScore', { score: item.score, max: item.max_score })
      : t(`courseHome.status.${item.status}`);
  return (
    <Badge
      variant="light"
      color={outcome ? OUTCOME_COLOR[outcome] : STATUS_COLOR[item.status]}
      data-status={item.status}
    >
      {label}
    </Badge>
  );
}

/**
 * What a student sees: their due work, open quizzes, unread news, results, feedback released lately and
 * the next events.
 */
export function StudentHome({ courseId, overview }: { courseId: number; overview: StudentCourseOverview }) {
  const { t, i18n } = useTranslation();
  const format = useFormatters();
  const now = new Date(overview.now);
  const ago = (iso: string) => relativeTime(iso, i18n.language, now);
  const course = { course_id: courseId };

  return (
    <div className={classes.grid}>
      <HomeSection
        title={t('courseHome.student.dueSoon')}
        count={overview.due_soon.count}
        empty={t('courseHome.student.dueSoonEmpty')}
        more={{ to: pathTo('Assignment', course), label: t('courseHome.links.assignments') }}
      >
        {overview.due_soon.results.map((item) => (
          <HomeItem
            key={`${item.kind}-${item.assignment_id ?? item.quiz_course_id}`}
            to={workPath(courseId, item)}
            title={item.title}
            badges={
              <>
                <Badge variant="outline" color="gray">
                  {t(`courseHome.kind.${item.kind}`)}
                </Badge>
                {item.is_upcoming && item.status === 'not_submitted' ? (
                  // Not open yet: nothing is overdue, so when it opens, not a red "Not submitted".
                  <Badge variant="light" color="gray" tt="none" maw="100%" data-status="upcoming">
                    {t('courseHome.student.opens', { date: format.deadline(item.opens_at) })}
                  </Badge>
                ) : (
                  <WorkStatus item={item} />
                )}
                {item.is_late ? (
                  <Badge variant="light" color="orange">
                    {t('courseHome.student.late')}
                  </Badge>
                ) : null}
              </>
            }
          >
            {item.is_late && item.late_until !== null
              ? t('courseHome.student.lateUntil', { date: format.deadline(item.late_until) })
              : t(item.kind === 'quiz' ? 'courseHome.closes' : 'courseHome.due', {
                  date: format.deadline(item.due_at),
                })}
          </HomeItem>
        ))}
      </HomeSection>

      <HomeSection
        title={t('courseHome.student.openQuizzes')}
        count={overview.open_quizzes.count}
        empty={t('courseHome.student.openQuizzesEmpty')}
        more={{ to: pathTo('QuizList', course), label: t('courseHome.links.quizzes') }}
      >
        {overview.open_quizzes.results.map((quiz) => (
          <HomeItem
            key={quiz.quiz_course_id}
            to={quizPath(courseId, quiz)}
            title={quiz.title}
            badges={
              quiz.started_at !== null ? (
                <Badge variant="light" color="blue">
                  {t('courseHome.status.in_progress')}
                </Badge>
              ) : null
            }
          >
            {t('courseHome.closes', { date: format.deadline(quiz.closes_at) })}
            {quiz.time_limit_minutes !== null
              ? ` · ${t('courseHome.student.timeLimit', { count: quiz.time_limit_minutes })}`
              : ''}
          </HomeItem>
        ))}
      </HomeSection>

      <HomeSection
        title={t('courseHome.student.announcements')}
        count={overview.unread_announcements.count}
        empty={t('courseHome.student.announcementsEmpty')}
        more={{ to: `${pathTo('Forum', course)}?tab=unread`, label: t('courseHome.links.unread') }}
      >
        {overview.unread_announcements.results.map((post) => (
          <HomeItem
            key={post.id}
            to={forumPostPath(courseId, post.id)}
            title={post.title}
            badges={
              <>
                <Badge variant="filled" color="red" size="sm">
                  {t('courseHome.student.unread')}
                </Badge>
                {post.pinned ? (
                  <Badge variant="light" size="sm">
                    {t('forum.pinned')}
                  </Badge>
                ) : null}
              </>
            }
          >
            {t('courseHome.byWhen', {
              name: authorName(post.author, i18n.language),
              when: ago(post.published_at),
            })}
          </HomeItem>
        ))}
      </HomeSection>

      <HomeSection
        title={t('courseHome.student.replies')}
        count={overview.forum_replies.count}
        empty={t('courseHome.student.repliesEmpty')}
        more={{ to: `${pathTo('Forum', course)}?tab=discussion`, label: t('courseHome.links.forum') }}
      >
        {overview.forum_replies.results.map((reply) => (
          <HomeItem
            key={reply.topic_id}
            to={forumPostPath(courseId, reply.topic_id)}
            title={reply.topic_title}
          >
            {t('courseHome.student.replyCount', {
              count: reply.reply_count,
              name: authorName(reply.latest_author, i18n.language),
              when: ago(reply.latest_reply_at),
            })}
          </HomeItem>
        ))}
      </HomeSection>

      <HomeSection
        title={t('courseHome.student.results')}
        count={overview.latest_results.count}
        empty={t('courseHome.student.resultsEmpty')}
        more={{ to: pathTo('Submission', course), label: t('courseHome.links.submissions') }}
      >
        {overview.latest_results.results.map((result) => (
          <HomeItem
            key={`${result.kind}-${result.submission_id}`}
            to={
              result.kind === 'quiz' && result.quiz_id !== null
                ? quizSubmissionPath(courseId, result.quiz_id, result.submission_id)
                : submissionPath(courseId, result.submission_id)
            }
            title={result.title}
            badges={
              <>
                <Badge variant="outline" color="gray">
                  {t(`courseHome.kind.${result.kind}`)}
                </Badge>
                {result.status !== null && result.status !== 'Completed' ? (
                  <StatusBadge status={result.status} size="sm" />
                ) : null}
                {result.score !== null && result.max_score !== null ? (
                  <Badge
                    variant="light"
                    color={OUTCOME_COLOR[scoreOutcome('Completed', result.score, result.max_score) ?? 'none']}
                  >
                    {t('courseHome.score', { score: result.score, max: result.max_score })}
                  </Badge>
                ) : null}
              </>
            }
          >
            {t(result.kind === 'quiz' ? 'courseHome.student.shown' : 'courseHome.student.graded', {
              when: ago(result.result_at),
            })}
          </HomeItem>
        ))}
      </HomeSection>

      <HomeSection
        title={t('courseHome.student.feedback')}
        count={overview.new_feedback.count}
        empty={t('courseHome.student.feedbackEmpty')}
        more={{ to: pathTo('Submission', course), label: t('courseHome.links.submissions') }}
      >
        {overview.new_feedback.results.map((item) => (
          <HomeItem
            key={item.submission_id}
            to={submissionPath(courseId, item.submission_id)}
            title={item.assignment_title}
            badges={
              <>
                <Badge
                  variant="light"
                  color={OUTCOME_COLOR[scoreOutcome('Completed', item.total, item.max_score) ?? 'none']}
                >
                  {t('courseHome.score', { score: item.total, max: item.max_score })}
                </Badge>
                {item.open_regrade_requests > 0 ? (
                  <Badge variant="light" color="orange">
                    {t('courseHome.student.regradesOpen', { count: item.open_regrade_requests })}
                  </Badge>
                ) : null}
                {item.answered_regrade_requests > 0 ? (
                  <Badge variant="light" color="blue">
                    {t('courseHome.student.regradesAnswered', { count: item.answered_regrade_requests })}
                  </Badge>
                ) : null}
              </>
            }
          >
            {t('courseHome.student.released', { when: ago(item.released_at) })}
          </HomeItem>
        ))}
      </HomeSection>

      <HomeSection
        title={t('courseHome.student.events')}
        count={overview.upcoming_events.count}
        empty={t('courseHome.student.eventsEmpty')}
        more={{ to: pathTo('Calendar', course), label: t('courseHome.links.calendar') }}
      >
        {overview.upcoming_events.results.map((event) => (
          <HomeItem
            key={event.id}
            to={eventPath(courseId, event)}
            title={event.title}
            badges={
              <Badge variant="outline" color="gray">
                {t(`calendar.kinds.${event.kind}`)}
              </Badge>
            }
          >
            {event.all_day
              ? format.date(event.starts_at)
              : format.dateTimeRange(event.starts_at, event.ends_at)}
            {event.location ? ` · ${event.location}` : ''}
          </HomeItem>
        ))}
      </HomeSection>
    </div>
  );
}
