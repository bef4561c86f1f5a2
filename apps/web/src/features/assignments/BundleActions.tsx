import { Button, FileButton } from '@mantine/core';
import { IconFileZip, IconUpload } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { isApiError } from '../../api/client.ts';
import { pathTo } from '../../routes/route-table.ts';
import { saveBlob } from '../../ui/download.ts';
import { errorMessage } from '../../ui/errors.ts';
import { notifyError, notifySuccess } from '../../ui/notify.ts';
import { assignmentKeys } from './assignments.queries.ts';
import { downloadAssignmentBundle, importAssignmentBundle } from './bundles.api.ts';

/** Editors: the assignment as a .zip bundle, fetched with the session's token. */
export function ExportBundleButton({ assignmentId, courseId }: { assignmentId: number; courseId: number }) {
  const { t } = useTranslation();
  const download = useMutation({
    mutationFn: () => downloadAssignmentBundle(assignmentId, courseId),
    onSuccess: ({ blob, filename }) => {
      if (!saveBlob(blob, filename ?? `assignment-${assignmentId}.zip`))
        notifyError(t('common.downloadDenied'));
    },
    onError: (error) => notifyError(errorMessage(error, t), { title: t('assignmentBundles.exportFailed') }),
  });
  return (
    <Button
      variant="default"
      leftSection={<IconFileZip size={16} aria-hidden />}
      loading={download.isPending}
      onClick={() => download.mutate()}
    >
      {t('assignmentBundles.export')}
    </Button>
  );
}

/** What went wrong with a bundle: the server names the bad entry in its detail, so show that as it is. */
function importError(error: unknown, t: TFunction): string {
  return isApiError(error) && error.body.code === 'invalid_bundle'
    ? error.body.detail
    : errorMessage(error, t);
}

/** Editors of the course: a new assignment from a .zip bundle, then its page. */
export function ImportBundleButton({ courseId }: { courseId: number }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const resetInput = useRef<() => void>(null);
  const upload = useMutation({
    mutationFn: (file: File) => importAssignmentBundle(courseId, file),
    onSuccess: async (assignment) => {
      notifySuccess(t('assignmentBundles.imported', { title: assignment.title }));
      await queryClient.invalidateQueries({ queryKey: assignmentKeys.lists(courseId) });
      await navigate(pathTo('AssignmentDetail', { course_id: courseId, assignment_id: assignment.id }));
    },
    onError: (error) =>
      notifyError(importError(error, t), { title: t('assignmentBundles.importFailed'), autoClose: 15_000 }),
  });
  return (
    <FileButton
      onChange={(file) => {
        resetInput.current?.();
        if (file) upload.mutate(file);
      }}
      resetRef={resetInput}
      accept=".zip,application/zip"
      inputProps={{ 'aria-label': t('assignmentBundles.importLabel') }}
    >
      {(props) => (
        <Button
          {...props}
          variant="default"
          leftSection={<IconUpload size={18} aria-hidden />}
          loading={upload.isPending}
        >
          {t('assignmentBundles.import')}
        </Button>
      )}
    </FileButton>
  );
}
