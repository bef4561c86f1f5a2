import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { modals } from '@mantine/modals';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TestCase } from '@kadai/contracts';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../ui/errors.ts';
import { applyFieldErrors } from '../../ui/form.ts';
import { notifySuccess, notifyWarning } from '../../ui/notify.ts';
import { PytestCheckPanel } from './PytestCheckPanel.tsx';
import { TestCaseFields } from './TestCaseFields.tsx';
import { createTestCase, updateTestCase } from './assignments.api.ts';
import { assignmentKeys } from './assignments.queries.ts';
import {
  emptyTestCaseValues,
  testCaseBody,
  testCaseValues,
  type TestCaseFormValues,
} from './test-case-form.ts';

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

/**
 * Create a test case (added last) or edit one. Saving a pytest test checks its module on the server
 * (about a second): the dialog then stays open on the saved test with the check, so an editor sees at
 * once whether it collects, and what, before leaving it; io and script tests close on saving.
 *
 * While it stays open, what a save did is said in the dialog (a status line beside its buttons, and an
 * alert when it failed), never in a toast: a toast sits over the dialog's footer — on a phone over all
 * of it — and stays while the pointer rests on it, so Done could not be clicked. A toast is raised only
 * when the dialog closes.
 */
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
  // The test as last saved: `test`, or what this dialog created or saved (a later save PATCHes it).
  const [saved, setSaved] = useState<EditorTestCase | null>(test);
  const [savedHere, setSavedHere] = useState(false);
  // What the last save did, said in the dialog; null before a save, or after a failed one.
  const [outcome, setOutcome] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<TestCaseFormValues>({
    defaultValues: test ? testCaseValues(test) : emptyTestCaseValues(),
    mode: 'onTouched',
  });

  const save = useMutation({
    mutationFn: ({ values, base }: { values: TestCaseFormValues; base: EditorTestCase | null }) =>
      base
        ? updateTestCase(assignmentId, courseId, base.id, testCaseBody(values, base))
        : createTestCase(assignmentId, courseId, { ...testCaseBody(values, null), position: nextPosition }),
    onMutate: () => setFailure(null),
    onSuccess: async (result, { base }) => {
      const name = result.name;
      const draft = result.view === 'editor' && result.draft;
      const text = draft
        ? t('testCases.savedDraft', { name })
        : base
          ? t('testCases.saved', { name })
          : t('testCases.created', { name });
      if (result.view === 'editor' && result.check !== null) {
        setSaved(result);
        setSavedHere(true);
        setOutcome(text);
        form.reset(testCaseValues(result));
      } else {
        if (draft) notifyWarning(text);
        else notifySuccess(text);
        onClose();
      }
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: assignmentKeys.testCases(assignmentId, courseId) }),
        queryClient.invalidateQueries({ queryKey: assignmentKeys.detail(assignmentId, courseId) }),
        queryClient.invalidateQueries({ queryKey: assignmentKeys.lists(courseId) }),
      ]);
    },
    onError: (error) => {
      setOutcome(null);
      if (!applyFieldErrors(error, form.setError, SERVER_FIELDS)) setFailure(errorMessage(error, t));
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

  const check = saved?.kind === 'pytest' ? saved.check : null;
  const [kind, fileName, code] = useWatch({
    control: form.control,
    name: ['kind', 'test_file_name', 'test_code'],
  });
  // The check is of the module as saved: once the form's differs, it says so.
  const stale =
    saved !== null && (kind !== 'pytest' || fileName !== saved.test_file_name || code !== saved.test_code);
  const counted =
    check?.status === 'ready'
      ? check.tests.reduce((sum, item) => sum + item.points, 0)
      : saved?.kind === 'pytest' && saved.points_auto
        ? saved.points
        : null;

  return (
    <Modal
      opened
      onClose={requestClose}
      title={saved ? t('testCases.editTitle', { name: saved.name }) : t('testCases.newTitle')}
      size="xl"
      fullScreen={isPhone}
      closeOnClickOutside={false}
    >
      <form noValidate onSubmit={form.handleSubmit((values) => save.mutate({ values, base: saved }))}>
        <Stack gap="md">
          <TestCaseFields form={form} counted={counted} />
          {saved && check ? (
            <PytestCheckPanel
              check={check}
              points={saved.points}
              pointsAuto={saved.points_auto}
              stale={stale}
            />
          ) : null}
          {failure !== null ? (
            <Alert color="red" variant="light" title={t('testCases.saveFailed')}>
              <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                {failure}
              </Text>
            </Alert>
          ) : null}
          <Group justify="space-between" gap="sm" wrap="wrap">
            {/* Always there, so a screen reader hears each save; it says nothing once the form changes. */}
            <Text size="sm" role="status" style={{ flex: '1 1 12rem', overflowWrap: 'anywhere' }}>
              {outcome !== null && !form.formState.isDirty ? outcome : ''}
            </Text>
            <Group gap="sm" wrap="nowrap" ms="auto">
              <Button variant="default" onClick={requestClose}>
                {savedHere && !form.formState.isDirty ? t('testCases.done') : t('common.cancel')}
              </Button>
              <Button type="submit" loading={save.isPending}>
                {saved ? t('common.save') : t('testCases.create')}
              </Button>
            </Group>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
