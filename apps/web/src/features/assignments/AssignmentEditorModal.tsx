import { Alert, Button, Center, Group, Loader, Modal, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { modals } from '@mantine/modals';
import { IconChecklist, IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, type ReactNode, type RefObject } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { pathTo } from '../../routes/route-table.ts';
import { ErrorState } from '../../ui/ErrorState.tsx';
import { errorMessage } from '../../ui/errors.ts';
import { notifyError, notifySuccess } from '../../ui/notify.ts';
import { AssignmentFormFields } from './AssignmentFormFields.tsx';
import { AttachmentsField } from './AttachmentsField.tsx';
import { NewAssignmentFlow } from './NewAssignmentFlow.tsx';
import { assignmentValues, type AssignmentFormValues, type EditorAssignment } from './assignment-form.ts';
import { deleteAssignment } from './assignments.api.ts';
import { assignmentKeys, assignmentQuery } from './assignments.queries.ts';
import { confirmDiscard } from './confirmDiscard.tsx';
import { useSaveAssignment } from './useSaveAssignment.ts';

interface Props {
  courseId: number;
  /** The course's time zone: a new assignment is due at 23:59 there. */
  timeZone: string;
  /** null: a new assignment. */
  assignmentId: number | null;
  onClose: () => void;
  /** After a new assignment's last step (or "Finish later"): close and open it. */
  onCreated: (id: number) => void;
  onDeleted: () => void;
}

/**
 * Mantine closes every open dialog on one Escape. A dialog opened over this one (a test case, a
 * confirmation) takes that Escape for itself, so this one stays open.
 */
function hasDialogAbove(): boolean {
  return document.querySelectorAll('[role="dialog"][aria-modal="true"]').length > 1;
}

/**
 * A new assignment in one pass (details, test cases, reference run), or an existing one edited; loads
 * the assignment first when editing.
 */
export function AssignmentEditorModal({
  courseId,
  timeZone,
  assignmentId,
  onClose,
  onCreated,
  onDeleted,
}: Props) {
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
      <NewAssignmentFlow
        courseId={courseId}
        timeZone={timeZone}
        closeRef={closeRef}
        onClose={onClose}
        onCreated={onCreated}
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
        timeZone={timeZone}
        assignment={editorView}
        initial={assignmentValues(editorView, detail.data.course)}
        onClose={onClose}
        onDeleted={onDeleted}
        closeRef={closeRef}
      />
    );
  }

  return (
    <Modal
      opened
      onClose={() => {
        if (!hasDialogAbove()) closeRef.current();
      }}
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
  timeZone,
  assignment,
  initial,
  onClose,
  onDeleted,
  closeRef,
}: Pick<Props, 'courseId' | 'timeZone' | 'onClose' | 'onDeleted'> & {
  assignment: EditorAssignment;
  initial: AssignmentFormValues;
  closeRef: RefObject<() => void>;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const form = useForm<AssignmentFormValues>({ defaultValues: initial, mode: 'onTouched' });
  // Read while rendering, so the form keeps it current for the close check.
  const { isDirty } = form.formState;

  const confirmClose = () => {
    if (!isDirty) onClose();
    else confirmDiscard(t, onClose);
  };
  useEffect(() => {
    closeRef.current = confirmClose;
  });

  const save = useSaveAssignment({
    courseId,
    form,
    onSaved: (saved) => {
      notifySuccess(t('assignments.editor.saved', { title: saved.title }));
      onClose();
    },
  });

  const remove = useMutation({
    mutationFn: () => deleteAssignment(assignment.id),
    onSuccess: async () => {
      queryClient.removeQueries({ queryKey: assignmentKeys.detail(assignment.id, courseId) });
      await queryClient.invalidateQueries({ queryKey: assignmentKeys.lists(courseId) });
      notifySuccess(t('assignments.editor.deleted', { title: assignment.title }));
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
            {assignment.title}
          </Text>
        </Stack>
      ),
      labels: { confirm: t('common.delete'), cancel: t('common.cancel') },
      confirmProps: { color: 'red' },
      onConfirm: () => remove.mutate(),
    });

  return (
    <form noValidate onSubmit={form.handleSubmit((values) => save.mutate({ values, assignment }))}>
      <Stack gap="lg">
        <AssignmentFormFields form={form} courseTimeZone={timeZone} />
        <AttachmentsField assignmentId={assignment.id} courseId={courseId} />
        <Group justify="space-between" mt="md">
          <Group gap="xs">
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
          </Group>
          <Group gap="xs">
            <Button variant="default" onClick={confirmClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={save.isPending}>
              {t('common.save')}
            </Button>
          </Group>
        </Group>
      </Stack>
    </form>
  );
}
