import { Button, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { coursePath } from '../../routes/route-table.ts';
import { ErrorState } from '../../ui/ErrorState.tsx';
import { NotFoundPage } from '../../ui/NotFoundPage.tsx';
import { Section } from '../../ui/Section.tsx';
// A course's id and an LMS course's follow one rule: a positive 32-bit integer.
import { parseCourseId as parseId } from '../courses/courses.queries.ts';
import { LinkCourseStep } from './LinkCourseStep.tsx';
import { contextQuery } from './lti.api.ts';
import { contextName } from './lti-names.ts';
import { ltiTarget } from './lti-sign-in.ts';

/**
 * An instructor's first launch from an LMS course that no Kadai course stands for yet
 * (`/lti/context/{context_id}`, issue 38): link it to a new course or to one of theirs, then go on to
 * the page the server names.
 */
export function LtiContextPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const id = parseId(useParams().context_id);
  const context = useQuery({ ...contextQuery(id ?? 0), enabled: id !== null });
  if (id === null) return <NotFoundPage />;
  return (
    <Stack gap="lg">
      <Title order={1}>{t('routes.ltiContext')}</Title>
      {context.isError ? (
        <ErrorState error={context.error} onRetry={() => void context.refetch()} />
      ) : !context.data ? (
        <Skeleton height={240} aria-busy="true" />
      ) : context.data.course ? (
        <Section title={contextName(context.data)}>
          <Stack gap="sm" align="flex-start">
            <Text size="sm">{t('lti.context.alreadyLinked', { course: context.data.course.title })}</Text>
            <Button component={Link} to={coursePath(context.data.course.id)}>
              {t('lti.context.openCourse')}
            </Button>
          </Stack>
        </Section>
      ) : (
        <LinkCourseStep
          context={context.data}
          onLinked={(next) => void navigate(ltiTarget(next), { replace: true })}
        />
      )}
    </Stack>
  );
}
