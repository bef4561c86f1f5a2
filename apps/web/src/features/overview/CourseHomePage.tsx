import { Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useDeferredValue } from 'react';
import { useTranslation } from 'react-i18next';
import { useCourse } from '../courses/useCourse.ts';
import { ErrorState } from '../../ui/ErrorState.tsx';
import { canEditCourse } from '../assignments/permissions.ts';
import { EditorHome } from './EditorHome.tsx';
import { StudentHome } from './StudentHome.tsx';
import { courseOverviewQuery } from './overview.queries.ts';
import classes from './CourseHome.module.css';

/** Cards of the size the sections will have, while the one call of the page is on its way. */
function HomeSkeleton({ cards }: { cards: number }) {
  const { t } = useTranslation();
  return (
    <div className={classes.grid} aria-busy="true" aria-label={t('common.loading')} role="status">
      {Array.from({ length: cards }, (_, i) => (
        <Paper key={i} withBorder radius="md" p="md">
          <Stack gap="sm">
            <Skeleton height={20} width="50%" />
            <Skeleton height={14} />
            <Skeleton height={14} width="80%" />
            <Skeleton height={14} width="65%" />
          </Stack>
        </Paper>
      ))}
    </div>
  );
}

/**
 * The course's first page (docs/course-home.md): for a student, what is due and what is new; for
 * editors and staff, what needs them. One call, shaped by the server for the caller's role.
 */
export function CourseHomePage() {
  const { t } = useTranslation();
  const course = useCourse();
  const overview = useQuery(courseOverviewQuery(course.id));
  // Drawn in a background render cut into slices, not in the store's blocking task (docs/first-load.md).
  const data = useDeferredValue(overview.data);
  const manages = canEditCourse(course);

  return (
    <Stack gap="lg">
      <div>
        <Title order={1} className={classes.wrap}>
          {course.title}
        </Title>
        <Text c="dimmed" size="sm">
          {manages ? t('courseHome.editor.intro') : t('courseHome.student.intro')}
        </Text>
      </div>
      {overview.isError ? (
        <ErrorState error={overview.error} onRetry={() => void overview.refetch()} />
      ) : !data ? (
        <HomeSkeleton cards={manages ? 4 : 6} />
      ) : data.view === 'student' ? (
        <StudentHome courseId={course.id} overview={data} />
      ) : (
        <EditorHome courseId={course.id} overview={data} />
      )}
    </Stack>
  );
}
