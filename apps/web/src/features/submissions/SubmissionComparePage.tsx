import { Alert, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { SubmissionDetail } from '@kadai/contracts';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { isApiError } from '../../api/client.ts';
import { pathTo } from '../../routes/route-table.ts';
import { ErrorState } from '../../ui/ErrorState.tsx';
import { NotFoundPage } from '../../ui/NotFoundPage.tsx';
import { PageLoader } from '../../ui/PageLoader.tsx';
import { assignmentQuery, parseId } from '../assignments/assignments.queries.ts';
import { memberName } from '../courses/member-name.ts';
import { useCourse } from '../courses/useCourse.ts';
import { ComparePickers } from './ComparePickers.tsx';
import { CompareFiles } from './CompareFiles.tsx';
import {
  defaultCompareWith,
  parseCompareWith,
  type CompareWith,
  type ComparedFile,
} from './compare-sides.ts';
import { mySubmissionsQuery, submissionQuery } from './submissions.queries.ts';

/** The most submissions of one author to one assignment the pickers offer (the API's largest page). */
const MAX_LISTED = 100;

/**
 * Two submissions of one author to one assignment side by side, or (for editors) a submission and the
 * assignment's reference solution: `/course/{id}/submission/{id}/compare?with={id | reference}`.
 */
export function SubmissionComparePage() {
  const { t } = useTranslation();
  const course = useCourse();
  const submissionId = parseId(useParams().submission_id);
  const submission = useQuery({ ...submissionQuery(submissionId ?? 0), enabled: submissionId !== null });

  if (submissionId === null || isApiError(submission.error, 404)) return <NotFoundPage />;
  if (submission.data && submission.data.course_id !== course.id) return <NotFoundPage />;
  if (submission.isError && !submission.data) {
    return (
      <>
        <Title order={1}>{t('routes.submissionCompare')}</Title>
        <ErrorState error={submission.error} onRetry={() => void submission.refetch()} />
      </>
    );
  }
  if (!submission.data) return <PageLoader />;
  return <CompareView left={submission.data} />;
}

const filesOf = (submission: SubmissionDetail): ComparedFile[] =>
  submission.files.map(({ filename, content }) => ({ filename, content }));

function CompareView({ left }: { left: SubmissionDetail }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const [searchParams, setSearchParams] = useSearchParams();
  const list = useQuery(
    mySubmissionsQuery(left.course_id, left.user.id, {
      assignment_id: left.assignment_id,
      limit: MAX_LISTED,
      offset: 0,
      ordering: '-created_at',
    }),
  );
  const assignment = useQuery(assignmentQuery(left.assignment_id, left.course_id));
  // Only editors get the editor view, the one with the reference solution: students never see the choice.
  const editorView = assignment.data?.assignment.view === 'editor' ? assignment.data.assignment : null;
  const reference =
    editorView && editorView.reference_solution !== ''
      ? { filename: editorView.entry_file, content: editorView.reference_solution }
      : null;

  const asked = parseCompareWith(searchParams.get('with'));
  const settled = list.isSuccess && !assignment.isPending;
  const listed = list.data?.results ?? [];
  const right: CompareWith | null =
    asked ?? (settled ? defaultCompareWith(left.id, listed, reference !== null) : null);
  const otherId = typeof right === 'number' ? right : null;
  const other = useQuery({ ...submissionQuery(otherId ?? 0), enabled: otherId !== null });

  // The left side is always offered, also when it is older than the newest MAX_LISTED.
  const submissions = listed.some((submission) => submission.id === left.id) ? listed : [left, ...listed];
  if (other.data && !submissions.some((submission) => submission.id === other.data.id)) {
    submissions.push(other.data);
  }

  const query = (value: CompareWith | null) => (value === null ? '' : `?with=${value}`);
  const chooseLeft = (id: number) =>
    void navigate(
      `${pathTo('SubmissionCompare', { course_id: left.course_id, submission_id: id })}${query(right === id ? left.id : right)}`,
      { replace: true },
    );
  const chooseRight = (value: CompareWith) => setSearchParams({ with: String(value) }, { replace: true });

  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Title order={1}>{t('routes.submissionCompare')}</Title>
        <Text c="dimmed">
          {left.can_manage
            ? t('submissions.compare.subtitleOf', {
                title: left.assignment_title,
                name: memberName(left.user, i18n.language),
              })
            : left.assignment_title}
        </Text>
      </Stack>
      {list.isError ? <ErrorState error={list.error} onRetry={() => void list.refetch()} /> : null}
      <ComparePickers
        leftId={left.id}
        right={right}
        submissions={submissions}
        hasReference={reference !== null}
        onLeft={chooseLeft}
        onRight={chooseRight}
      />
      <RightSide
        right={right}
        settled={settled}
        leftFiles={filesOf(left)}
        left={left}
        other={other.data}
        otherError={other.error}
        reference={reference}
        entryFile={assignment.data?.assignment.entry_file ?? null}
        onRetry={() => void other.refetch()}
      />
    </Stack>
  );
}

interface RightSideProps {
  right: CompareWith | null;
  settled: boolean;
  left: SubmissionDetail;
  leftFiles: ComparedFile[];
  /** The right side's submission, once loaded. */
  other: SubmissionDetail | undefined;
  otherError: Error | null;
  reference: ComparedFile | null;
  entryFile: string | null;
  onRetry: () => void;
}

/** The diff once the right side is known, or why there is none. */
function RightSide(props: RightSideProps) {
  const { t } = useTranslation();
  const { right, left, other, reference } = props;
  if (right === null) {
    if (!props.settled) return <PageLoader />;
    return <Alert color="gray">{t('submissions.compare.nothingElse')}</Alert>;
  }
  if (right === 'reference') {
    if (!props.settled) return <PageLoader />;
    if (reference === null) return <Alert color="gray">{t('submissions.compare.noReference')}</Alert>;
    return (
      <CompareFiles
        left={{ name: t('submissions.compare.sideSubmission', { id: left.id }), files: props.leftFiles }}
        right={{ name: t('submissions.compare.reference'), files: [reference] }}
        entryFile={props.entryFile}
      />
    );
  }
  if (props.otherError) {
    return isApiError(props.otherError, 404) ? (
      <Alert color="gray">{t('submissions.compare.notFound', { id: right })}</Alert>
    ) : (
      <ErrorState error={props.otherError} onRetry={props.onRetry} />
    );
  }
  if (other === undefined) return <PageLoader />;
  // Only submissions to the same assignment are compared (another one may be typed into the address).
  if (other.assignment_id !== left.assignment_id) {
    return <Alert color="gray">{t('submissions.compare.notFound', { id: right })}</Alert>;
  }
  return (
    <CompareFiles
      left={{ name: t('submissions.compare.sideSubmission', { id: left.id }), files: props.leftFiles }}
      right={{ name: t('submissions.compare.sideSubmission', { id: other.id }), files: filesOf(other) }}
      entryFile={props.entryFile}
    />
  );
}
