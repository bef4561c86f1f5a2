import { Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Suspense, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate } from 'react-router';
import { isApiError } from '../../api/client.ts';
import { PageLoader } from '../../ui/PageLoader.tsx';
import { useCourse } from '../courses/useCourse.ts';
import { NotFoundPage } from '../../ui/NotFoundPage.tsx';
import { pathTo, ROUTES } from '../../routes/route-table.ts';
import { ErrorState } from '../../ui/ErrorState.tsx';
import { lazyComponent } from '../../ui/lazyComponent.ts';
import { useSession } from '../auth/session.ts';
import { canManageAssessment, decideAssessmentAccess } from './assessment-access.ts';
import { assessmentExistenceQuery } from './assessment.queries.ts';

// The blocked view holds the editors' skill tools: loaded only when a course has no analysis yet.
const AssessmentUnavailable = lazyComponent(() =>
  import('./AssessmentUnavailable.tsx').then((m) => ({ default: m.AssessmentUnavailable })),
);

function Guard({ page, children }: { page: 'table' | 'detail'; children: ReactNode }) {
  const { t } = useTranslation();
  const course = useCourse();
  const isStaff = useSession((s) => s.is_staff);
  const editorCourses = useSession((s) => s.editorCourses);
  const userId = useSession((s) => s.userId);
  const existence = useQuery(assessmentExistenceQuery(course.id));
  const canManage = canManageAssessment(course, { is_staff: isStaff, editorCourses });
  const access = decideAssessmentAccess(
    page,
    { status: existence.status, exists: existence.data?.data },
    { canManage, userId },
  );
  const route = page === 'table' ? 'Assessment' : 'AssessmentDetail';

  switch (access.kind) {
    case 'wait':
      return <PageLoader />;
    case 'error':
      // Not a member: the course is not theirs to see, answered like every object they may not see.
      if (isApiError(existence.error, 404)) return <NotFoundPage />;
      return (
        <>
          <Title order={1}>{t(ROUTES[route].titleKey)}</Title>
          <ErrorState error={existence.error} onRetry={() => void existence.refetch()} />
        </>
      );
    case 'blocked':
      return (
        <Suspense fallback={<PageLoader />}>
          <AssessmentUnavailable route={route} canManage={canManage} />
        </Suspense>
      );
    case 'redirect':
      return (
        <Navigate to={pathTo('AssessmentDetail', { course_id: course.id, user_id: access.userId })} replace />
      );
    case 'proceed':
      return children;
  }
}

/** Assessment: the existence check, then the table for staff and editors, else one's own detail. */
export function AssessmentGuard({ children }: { children: ReactNode }) {
  return <Guard page="table">{children}</Guard>;
}

/** AssessmentDetail: proceeds only when the course has assessment analysis. */
export function AssessmentDetailGuard({ children }: { children: ReactNode }) {
  return <Guard page="detail">{children}</Guard>;
}
