import { Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useDeferredValue } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useParams } from 'react-router';
import { isApiError } from '../../api/client.ts';
import { courseQuery, parseCourseId } from '../../features/courses/courses.queries.ts';
import type { CourseOutletContext } from '../../features/courses/useCourse.ts';
import { NotFoundPage } from '../../ui/NotFoundPage.tsx';
import { CourseZoneContext } from '../../i18n/course-zone.ts';
import { ErrorState } from '../../ui/ErrorState.tsx';
import { Breadcrumbs } from './Breadcrumbs.tsx';
import { PageLoader } from '../../ui/PageLoader.tsx';
import { ROUTES } from '../../routes/route-table.ts';
import { useCurrentRoute } from './useDocumentTitle.ts';

/** Every page under /course/{course_id}/: loads the course once, shows the breadcrumbs. */
export function CourseLayout() {
  const { t } = useTranslation();
  const current = useCurrentRoute();
  const params = useParams();
  const courseId = parseCourseId(params.course_id);
  const course = useQuery({ ...courseQuery(courseId ?? 0), enabled: courseId !== null });
  // The page is drawn in a background render cut into slices, not in the blocking task in which the
  // query store announces the course (docs/first-load.md); its loader stays until then.
  const data = useDeferredValue(course.data);

  if (courseId === null || isApiError(course.error, 404)) return <NotFoundPage />;
  if (course.isError) {
    return (
      <>
        <Title order={1}>{current ? t(ROUTES[current.name].titleKey) : t('routes.course')}</Title>
        <ErrorState error={course.error} onRetry={() => void course.refetch()} />
      </>
    );
  }
  if (!data) return <PageLoader />;

  return (
    <>
      <Breadcrumbs />
      {/* Deadlines name the reader's zone when the course's differs (ui/Deadline.tsx). */}
      <CourseZoneContext value={data.time_zone}>
        <Outlet context={{ course: data } satisfies CourseOutletContext} />
      </CourseZoneContext>
    </>
  );
}
