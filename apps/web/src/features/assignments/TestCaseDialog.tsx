import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { modals } from '@mantine/modals';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TestCase } from '@kadai/contracts';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../ui/errors.ts';
import { applyFieldErrors } from '../../ui/form.ts';
import { notifyError, notifySuccess } from '../../ui/notify.ts';
import { TestCaseFields } from './TestCaseFields.tsx';
import { createTestCase, updateTestCase } from './assignments.api.ts';
import { assignmentKeys } from './assignments.queries.ts';
import { emptyTestCaseValues, testCaseValues, type TestCaseFormValues } from './test-case-form.ts';

type EditorTestCase = Extract<TestCase, { view: 'editor' }>;

const SERVER_FIELDS = [
  'name',
  'points',
  'stdin',
  'expected_stdout',
  'tolerance',
  'driver',
  'check_script',
  'test_file_name',
  'test_code',
  'time_limit_ms',
  'memory_limit_mb',
] as const;

/** Create a test case (added last) or edit one. */
export function TestCaseDialog({
  assignmentId,
  courseId,
  test,
  nextPosition,
  onClose,
}: {
  assignmentId: number;
  courseId: number;
  test: EditorTestCase | null;
  nextPosition: number;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const isPhone = useMediaQuery('(max-width: 48em)');
  const queryClient = useQueryClient();
  const form = useForm<TestCaseFormValues>({
    defaultValues: test ? testCaseValues(test) : emptyTestCaseValues(),
    mode: 'onTouched',
  });

  const save = useMutation({
    mutationFn: (values: TestCaseFormValues) =>
      test
        ? updateTestCase(assignmentId, courseId, test.id, values)
        : createTestCase(assignmentId, courseId, { ...values, position: nextPosition }),
    onSuccess: async (saved) => {
      notifySuccess(
        test ? t('testCases.saved', { name: saved.name }) : t('testCases.created', { name: saved.name }),
      );
      onClose();
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: assignmentKeys.testCases(assignmentId, courseId) }),
        queryClient.invalidateQueries({ queryKey: assignmentKeys.detail(assignmentId, courseId) }),
        queryClient.invalidateQueries({ queryKey: assignmentKeys.lists(courseId) }),
      ]);
    },
    onError: (error) => {
      if (!applyFieldErrors(error, form.setError, SERVER_FIELDS)) {
        notifyError(errorMessage(error, t), { title: t('testCases.saveFailed') });
      }
    },
  });

  const requestClose = () => {
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

  return (
    <Modal
      opened
      onClose={requestClose}
      title={test ? t('testCases.editTitle', { name: test.name }) : t('testCases.newTitle')}
      size="xl"
      fullScreen={isPhone}
      closeOnClickOutside={false}
    >
      <form noValidate onSubmit={form.handleSubmit((values) => save.mutate(values))}>
        <Stack gap="md">
          <TestCaseFields form={form} />
          <Group justify="flex-end">
            <Button variant="default" onClick={requestClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={save.isPending}>
              {test ? t('common.save') : t('testCases.create')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
