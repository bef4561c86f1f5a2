import { Alert, Button, Center, Group, Loader, Modal, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { modals } from '@mantine/modals';
import { IconChecklist, IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, type ReactNode, type RefObject } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { pathTo } from '../../app/route-table.ts';
import { ErrorState } from '../../ui/ErrorState.tsx';
import { errorMessage } from '../../ui/errors.ts';
import { applyFieldErrors } from '../../ui/form.ts';
import { notifyError, notifySuccess } from '../../ui/notify.ts';
import { AssignmentFormFields } from './AssignmentFormFields.tsx';
import { AttachmentsField } from './AttachmentsField.tsx';
import {
  assignmentValues,
  emptyAssignmentValues,
  toAssignmentCreate,
  toAssignmentUpdate,
  type AssignmentFormValues,
  type EditorAssignment,
} from './assignment-form.ts';
import { createAssignment, deleteAssignment, updateAssignment } from './assignments.api.ts';
import { assignmentKeys, assignmentQuery } from './assignments.queries.ts';

interface Props {
  courseId: number;
  /** null: a new assignment. */
  assignmentId: number | null;
  onClose: () => void;
  onCreated: (id: number) => void;
  onDeleted: () => void;
}

/** Create or edit an assignment in a dialog; loads the assignment first when editing. */
export function AssignmentEditorModal({ courseId, assignmentId, onClose, onCreated, onDeleted }: Props) {
  const { t } = useTranslation();
  const isPhone = useMediaQuery('(max-width: 48em)');
  const detail = useQuery({
    ...assignmentQuery(assignmentId ?? 0, courseId),
    enabled: assignmentId !== null,
  });
  const editorView = detail.data?.assignment.view === 'editor' ? detail.data.assignment : null;
  // The form decides what closing means (ask first when there are changes); the dialog's X and Escape use it.
  const closeRef = useRef<() => void>(onClose);

  let body: ReactNode;
  if (assignmentId === null) {
    body = (
      <AssignmentForm
        courseId={courseId}
        assignment={null}
        initial={emptyAssignmentValues()}
        onClose={onClose}
        onCreated={onCreated}
        onDeleted={onDeleted}
        closeRef={closeRef}
      />
    );
  } else if (detail.isError) {
    body = <ErrorState error={detail.error} onRetry={() => void detail.refetch()} />;
  } else if (!detail.data) {
    body = (
      <Center py="xl">
        <Loader aria-label={t('common.loading')} />
      </Center>
    );
  } else if (!editorView) {
    body = (
      <Alert color="red" role="alert">
        {t('errors.forbidden')}
      </Alert>
    );
  } else {
    body = (
      <AssignmentForm
        courseId={courseId}
        assignment={editorView}
        initial={assignmentValues(editorView, detail.data.course)}
        onClose={onClose}
        onCreated={onCreated}
        onDeleted={onDeleted}
        closeRef={closeRef}
      />
    );
  }

  return (
    <Modal
      opened
      onClose={() => closeRef.current()}
      title={assignmentId === null ? t('assignments.editor.newTitle') : t('assignments.editor.editTitle')}
      size="xl"
      fullScreen={isPhone}
      closeOnClickOutside={false}
    >
      {body}
    </Modal>
  );
}

function AssignmentForm({
  courseId,
  assignment,
  initial,
  onClose,
  onCreated,
  onDeleted,
  closeRef,
}: Omit<Props, 'assignmentId'> & {
  assignment: EditorAssignment | null;
  initial: AssignmentFormValues;
  closeRef: RefObject<() => void>;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const form = useForm<AssignmentFormValues>({ defaultValues: initial, mode: 'onTouched' });

  const confirmClose = () => {
    if (!form.formState.isDirty) {
      onClose();
      return;
    }
    modals.openConfirmModal({
      title: t('assignments.editor.discardTitle'),
      children: <Text size="sm">{t('common.confirmDiscard')}</Text>,
      labels: { confirm: t('assignments.editor.discard'), cancel: t('common.cancel') },
      confirmProps: { color: 'red' },
      onConfirm: onClose,
    });
  };
  useEffect(() => {
    closeRef.current = confirmClose;
  });

  const invalidate = async (id: number) => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: assignmentKeys.lists(courseId) }),
      queryClient.invalidateQueries({ queryKey: assignmentKeys.detail(id, courseId) }),
    ]);
    // After the detail: the breadcrumb's resolver reads the title from it.
    await queryClient.invalidateQueries({ queryKey: ['breadcrumb', 'assignment_id', String(id)] });
  };

  const save = useMutation({
    mutationFn: (values: AssignmentFormValues) => {
      if (assignment === null) return createAssignment(toAssignmentCreate(values, courseId));
      const changed = new Set(Object.keys(form.formState.dirtyFields));
      return updateAssignment(assignment.id, toAssignmentUpdate(values, assignment, courseId, changed));
    },
    onSuccess: async (saved) => {
      await invalidate(saved.id);
      if (assignment === null) {
        notifySuccess(t('assignments.editor.created', { title: saved.title }));
        onCreated(saved.id);
      } else {
        notifySuccess(t('assignments.editor.saved', { title: saved.title }));
        onClose();
      }
    },
    onError: (error) => {
      const fields = [
        'title',
        'statement',
        'starter_code',
        'entry_file',
        'max_files',
        'reference_solution',
      ] as const;
      if (!applyFieldErrors(error, form.setError, fields)) {
        notifyError(errorMessage(error, t), { title: t('assignments.editor.saveFailed') });
      }
    },
  });

  const remove = useMutation({
    mutationFn: () => deleteAssignment(assignment?.id),
    onSuccess: async () => {
      if (assignment) queryClient.removeQueries({ queryKey: assignmentKeys.detail(assignment.id, courseId) });
      await queryClient.invalidateQueries({ queryKey: assignmentKeys.lists(courseId) });
      notifySuccess(t('assignments.editor.deleted', { title: assignment?.title ?? '' }));
      onDeleted();
    },
    onError: (error) => notifyError(errorMessage(error, t), { title: t('assignments.editor.deleteFailed') }),
  });

  const confirmDelete = () =>
    modals.openConfirmModal({
      title: t('assignments.editor.delete'),
      children: (
        <Stack gap="xs">
          <Text size="sm">{t('common.confirmDelete')}</Text>
          <Text size="sm" fw={600}>
            {assignment?.title}
          </Text>
        </Stack>
      ),
      labels: { confirm: t('common.delete'), cancel: t('common.cancel') },
      confirmProps: { color: 'red' },
      onConfirm: () => remove.mutate(),
    });

  return (
    <form noValidate onSubmit={form.handleSubmit((values) => save.mutate(values))}>
      <Stack gap="lg">
        <AssignmentFormFields form={form} />
        {assignment ? (
          <AttachmentsField assignmentId={assignment.id} courseId={courseId} />
        ) : (
          <Text size="sm" c="dimmed">
            {t('assignments.attachments.afterCreate')}
          </Text>
        )}
        <Group justify="space-between" mt="md">
          <Group gap="xs">
            {assignment ? (
              <>
                <Button
                  color="red"
                  variant="outline"
                  leftSection={<IconTrash size={16} aria-hidden />}
                  onClick={confirmDelete}
                  loading={remove.isPending}
                >
                  {t('assignments.editor.delete')}
                </Button>
                <Button
                  variant="subtle"
                  component={Link}
                  to={pathTo('TestCase', { course_id: courseId, assignment_id: assignment.id })}
                  leftSection={<IconChecklist size={16} aria-hidden />}
                >
                  {t('assignments.testCases')}
                </Button>
              </>
            ) : null}
          </Group>
          <Group gap="xs">
            <Button variant="default" onClick={confirmClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={save.isPending}>
              {assignment ? t('common.save') : t('assignments.editor.create')}
            </Button>
          </Group>
        </Group>
      </Stack>
    </form>
  );
}
