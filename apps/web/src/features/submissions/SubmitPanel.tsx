import { Alert, Button, FileButton, Group, Input, Stack, Text } from '@mantine/core';
import { IconFile, IconPlayerPlay, IconSend, IconUpload, IconX } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AssignmentCourseDetail, SubmitRequest } from '@kadai/contracts';
import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FileList } from '../../ui/FileList.tsx';
import { CodeEditor } from '../../ui/CodeEditor.tsx';
import { errorMessage } from '../../ui/errors.ts';
import { notifyError, notifySuccess } from '../../ui/notify.ts';
import { Section } from '../../ui/Section.tsx';
import { assignmentKeys } from '../assignments/assignments.queries.ts';
import { checkSubmissionFiles, readSubmittedFile } from '../assignments/file-limits.ts';
import { FileProblemList } from './FileProblemList.tsx';
import { FinalSubmissionNotice } from './FinalSubmissionNote.tsx';
import { PrecheckResults } from './PrecheckResults.tsx';
import { SubmissionLimits } from './SubmissionLimits.tsx';
import { precheck, submit } from './submissions.api.ts';
import { submissionKeys } from './submissions.queries.ts';
import { useDraft } from './useDraft.ts';

/**
 * The editor prefilled with the starter code, extra files, and Submit. Files are checked against the
 * assignment's limits before anything is sent; text files are read here and sent as JSON.
 */
export function SubmitPanel({ detail }: { detail: AssignmentCourseDetail }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { assignment, course } = detail;
  const [code, setCode, clearDraft] = useDraft(
    `${assignment.id}-${course.course_id}`,
    assignment.starter_code,
  );
  const [files, setFiles] = useState<File[]>([]);
  const [attempted, setAttempted] = useState(false);
  const limitsId = useId();

  const problems = checkSubmissionFiles(
    code,
    files,
    assignment,
    detail.files.map((file) => file.filename),
  );
  const shownProblems = attempted
    ? problems
    : problems.filter((problem) => problem.kind !== 'missing' && problem.kind !== 'empty');

  // Submit and "Run visible tests" send the same body: a precheck runs exactly what would be submitted.
  const requestBody = async (): Promise<SubmitRequest> => ({
    assignment_id: assignment.id,
    course_id: course.course_id,
    code: code.trim() ? code : undefined,
    files: await Promise.all(files.map(readSubmittedFile)),
    upload_files_later: false,
  });

  // Answered inline under the editor (errors too), not as a notification. The code and files it ran
  // are kept: once the editor's differ, its result is of earlier code and says so.
  const [checked, setChecked] = useState<{ code: string; files: File[] } | null>(null);
  const check = useMutation({
    mutationFn: async () => precheck({ ...(await requestBody()), upload_files_later: false }),
    onMutate: () => setChecked({ code, files }),
  });
  const checkOutdated = checked !== null && (checked.code !== code || checked.files !== files);

  // One key per content: Submit pressed again after a failure (a timeout, a lost answer) sends the same
  // key, so a submit that had in fact been saved is answered with that submission, not made twice.
  const attempt = useRef<{ body: string; key: string } | null>(null);
  const send = useMutation({
    mutationFn: async () => {
      const body = await requestBody();
      const text = JSON.stringify(body);
      if (attempt.current?.body !== text) attempt.current = { body: text, key: crypto.randomUUID() };
      return submit(body, attempt.current.key);
    },
    onSuccess: async (submission) => {
      attempt.current = null;
      notifySuccess(t('submissions.submit.done', { id: submission.id }));
      setFiles([]);
      setAttempted(false);
      // The submission's own result follows; a precheck left above it could contradict it.
      check.reset();
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: submissionKeys.lists() }),
        queryClient.invalidateQueries({ queryKey: assignmentKeys.lists(course.course_id) }),
      ]);
    },
    onError: (error) => notifyError(errorMessage(error, t), { title: t('submissions.submit.failed') }),
  });

  const onSubmit = () => {
    setAttempted(true);
    if (problems.length === 0) send.mutate();
  };
  const onPrecheck = () => {
    setAttempted(true);
    if (problems.length === 0) check.mutate();
  };

  const addFiles = (chosen: File[]) => {
    // A file chosen again replaces the earlier one of that name.
    const names = new Set(chosen.map((file) => file.name));
    setFiles((previous) => [...previous.filter((file) => !names.has(file.name)), ...chosen]);
  };

  return (
    <Section title={t('submissions.submit.title')}>
      <Stack gap="sm">
        {!detail.accepts_submissions ? (
          <Alert color="gray" role="status">
            {t('submissions.submit.closed')}
          </Alert>
        ) : detail.is_late_period ? (
          <Alert color="orange" role="status">
            {t('submissions.submit.late')}
          </Alert>
        ) : null}
        <SubmissionLimits assignment={assignment} id={limitsId} />
        <Input.Wrapper
          label={t('submissions.submit.code', { file: assignment.entry_file })}
          labelElement="div"
          description={t('submissions.submit.editorHint')}
        >
          <CodeEditor
            value={code}
            onChange={setCode}
            label={t('submissions.submit.code', { file: assignment.entry_file })}
            describedBy={limitsId}
            minHeight={240}
          />
        </Input.Wrapper>
        <Group gap="xs">
          <Button
            variant="subtle"
            size="compact-sm"
            onClick={() => {
              setCode(assignment.starter_code);
              clearDraft();
            }}
          >
            {t('submissions.submit.resetCode')}
          </Button>
        </Group>

        {files.length > 0 ? (
          <FileList
            label={t('submissions.submit.chosenFiles')}
            icon={<IconFile size={16} aria-hidden />}
            removeIcon={<IconX size={14} aria-hidden />}
            removeColor="gray"
            items={files.map((file) => ({
              key: file.name,
              name: <Text size="sm">{file.name}</Text>,
              size: file.size,
              removeLabel: t('submissions.submit.removeFile', { name: file.name }),
              onRemove: () => setFiles((previous) => previous.filter((other) => other !== file)),
            }))}
          />
        ) : null}

        <FileProblemList problems={shownProblems} />
        <FinalSubmissionNotice assignmentId={assignment.id} courseId={course.course_id} />

        <Group justify="space-between">
          <FileButton onChange={addFiles} multiple>
            {(props) => (
              <Button {...props} variant="default" leftSection={<IconUpload size={16} aria-hidden />}>
                {t('submissions.submit.addFiles')}
              </Button>
            )}
          </FileButton>
          <Group gap="xs">
            <Button
              variant="default"
              onClick={onPrecheck}
              loading={check.isPending}
              aria-busy={check.isPending}
              disabled={!detail.accepts_submissions}
              leftSection={<IconPlayerPlay size={16} aria-hidden />}
            >
              {t('submissions.precheck.run')}
            </Button>
            <Button
              onClick={onSubmit}
              loading={send.isPending}
              disabled={!detail.accepts_submissions}
              leftSection={<IconSend size={16} aria-hidden />}
            >
              {t('common.submit')}
            </Button>
          </Group>
        </Group>

        <PrecheckResults
          pending={check.isPending}
          result={check.data}
          error={check.error}
          outdated={checkOutdated}
        />
      </Stack>
    </Section>
  );
}
