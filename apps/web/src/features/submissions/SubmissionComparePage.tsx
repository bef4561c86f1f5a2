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
 * assignment's reference solution: `/course/{id}/submission/{id}/compare?with={id | reference}`, the
 * submission of the address on the right and what it is compared with on the left.
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
  return <CompareView submission={submission.data} />;
}

const filesOf = (submission: SubmissionDetail): ComparedFile[] =>
  submission.files.map(({ filename, content }) => ({ filename, content }));

function CompareView({ submission }: { submission: SubmissionDetail }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const [searchParams, setSearchParams] = useSearchParams();
  const list = useQuery(
    mySubmissionsQuery(submission.course_id, submission.user.id, {
      assignment_id: submission.assignment_id,
      limit: MAX_LISTED,
      offset: 0,
      ordering: '-created_at',
    }),
  );
  const assignment = useQuery(assignmentQuery(submission.assignment_id, submission.course_id));
  // Only editors get the editor view, the one with the reference solution: students never see the choice.
  const editorView = assignment.data?.assignment.view === 'editor' ? assignment.data.assignment : null;
  const reference =
    editorView && editorView.reference_solution !== ''
      ? { filename: editorView.entry_file, content: editorView.reference_solution }
      : null;

  const asked = parseCompareWith(searchParams.get('with'));
  const settled = list.isSuccess && !assignment.isPending;
  const listed = list.data?.results ?? [];
  const compareWith: CompareWith | null =
    asked ?? (settled ? defaultCompareWith(submission.id, listed, reference !== null) : null);
  const otherId = typeof compareWith === 'number' ? compareWith : null;
  const other = useQuery({ ...submissionQuery(otherId ?? 0), enabled: otherId !== null });

  // The page's submission is always offered, also when it is older than the newest MAX_LISTED.
  const submissions = listed.some((listedOne) => listedOne.id === submission.id)
    ? [...listed]
    : [submission, ...listed];
  if (other.data && !submissions.some((listedOne) => listedOne.id === other.data.id)) {
    submissions.push(other.data);
  }

  const chooseSubmission = (id: number) => {
    // Choosing the one on the left swaps the two sides.
    const kept = compareWith === id ? submission.id : compareWith;
    const path = pathTo('SubmissionCompare', { course_id: submission.course_id, submission_id: id });
    void navigate(kept === null ? path : `${path}?with=${kept}`, { replace: true });
  };
  const chooseOther = (value: CompareWith) => setSearchParams({ with: String(value) }, { replace: true });

  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Title order={1}>{t('routes.submissionCompare')}</Title>
        <Text c="dimmed">
          {submission.can_manage
            ? t('submissions.compare.subtitleOf', {
                title: submission.assignment_title,
                name: memberName(submission.user, i18n.language),
              })
            : submission.assignment_title}
        </Text>
      </Stack>
      {list.isError ? <ErrorState error={list.error} onRetry={() => void list.refetch()} /> : null}
      <ComparePickers
        other={compareWith}
        submissionId={submission.id}
        submissions={submissions}
        hasReference={reference !== null}
        onOther={chooseOther}
        onSubmission={chooseSubmission}
      />
      <Comparison
        compareWith={compareWith}
        settled={settled}
        submission={submission}
        other={other.data}
        otherError={other.error}
        reference={reference}
        entryFile={assignment.data?.assignment.entry_file ?? null}
        onRetry={() => void other.refetch()}
      />
    </Stack>
  );
}

interface ComparisonProps {
  compareWith: CompareWith | null;
  /** Whether the lists that decide the default left side have arrived. */
  settled: boolean;
  submission: SubmissionDetail;
  /** The left side's submission, once loaded. */
  other: SubmissionDetail | undefined;
  otherError: Error | null;
  reference: ComparedFile | null;
  entryFile: string | null;
  onRetry: () => void;
}

/** The diff once the left side is known (the older one, as a diff reads), or why there is none. */
function Comparison(props: ComparisonProps) {
  const { t } = useTranslation();
  const { compareWith, submission, other, reference } = props;
  const right = {
    name: t('submissions.compare.sideSubmission', { id: submission.id }),
    files: filesOf(submission),
  };
  if (compareWith === null) {
    if (!props.settled) return <PageLoader />;
    return <Alert color="gray">{t('submissions.compare.nothingElse')}</Alert>;
  }
  if (compareWith === 'reference') {
    if (!props.settled) return <PageLoader />;
    if (reference === null) return <Alert color="gray">{t('submissions.compare.noReference')}</Alert>;
    return (
      <CompareFiles
        left={{ name: t('submissions.compare.reference'), files: [reference] }}
        right={right}
        entryFile={props.entryFile}
      />
    );
  }
  if (props.otherError) {
    return isApiError(props.otherError, 404) ? (
      <Alert color="gray">{t('submissions.compare.notFound', { id: compareWith })}</Alert>
    ) : (
      <ErrorState error={props.otherError} onRetry={props.onRetry} />
    );
  }
  if (other === undefined) return <PageLoader />;
  // Only submissions to the same assignment are compared (another one may be typed into the address).
  if (other.assignment_id !== submission.assignment_id) {
    return <Alert color="gray">{t('submissions.compare.notFound', { id: compareWith })}</Alert>;
  }
  return (
    <CompareFiles
      left={{ name: t('submissions.compare.sideSubmission', { id: other.id }), files: filesOf(other) }}
      right={right}
      entryFile={props.entryFile}
    />
  );
}
