import { Alert, Button, Group, Stack, Stepper, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconDeviceFloppy } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type RefObject } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useFormatters } from '../../i18n/format.ts';
import { notifySuccess } from '../../ui/notify.ts';
import { AssignmentFormFields } from './AssignmentFormFields.tsx';
import { AttachmentsField } from './AttachmentsField.tsx';
import { ReferenceStep, StepHeading, StepNav } from './NewAssignmentSteps.tsx';
import { TestCaseManager } from './TestCaseManager.tsx';
import {
  assignmentValues,
  emptyAssignmentValues,
  type AssignmentFormValues,
  type EditorAssignment,
} from './assignment-form.ts';
import { assignmentQuery } from './assignments.queries.ts';
import { confirmDiscard } from './confirmDiscard.tsx';
import { useAssignmentDraft } from './useAssignmentDraft.ts';
import { useSaveAssignment } from './useSaveAssignment.ts';

const STEP_COUNT = 3;
const DETAILS = 0;
const TESTS = 1;
const REFERENCE = 2;

/**
 * A new assignment in one pass: Details (creates it), Test cases, Reference run. Until it is created the
 * form is kept as a draft in this browser; once it is, going back to Details changes it (PATCH), never
 * creates a second one.
 */
export function NewAssignmentFlow({
  courseId,
  timeZone,
  closeRef,
  onClose,
  onCreated,
}: {
  courseId: number;
  /** The course's time zone: the assignment is proposed due at 23:59 there. */
  timeZone: string;
  /** What the dialog's X and Escape do. */
  closeRef: RefObject<() => void>;
  onClose: () => void;
  /** Finish: close and open the new assignment. */
  onCreated: (id: number) => void;
}) {
  const { t } = useTranslation();
  const format = useFormatters();
  const isPhone = useMediaQuery('(max-width: 48em)');
  const [defaults] = useState(() => emptyAssignmentValues(timeZone));
  const form = useForm<AssignmentFormValues>({ defaultValues: defaults, mode: 'onTouched' });
  // Read while rendering, so the form keeps it current for the close check.
  const { isDirty } = form.formState;
  const [created, setCreated] = useState<EditorAssignment | null>(null);
  const [step, setStep] = useState(DETAILS);
  const draft = useAssignmentDraft(courseId, timeZone, form, defaults, created === null);
  const canSelect = created !== null;
  const queryClient = useQueryClient();
  const detailQuery = assignmentQuery(created?.id ?? 0, courseId);
  // Kept current (a reference run refreshes it) for going back to Details.
  useQuery({ ...detailQuery, enabled: created !== null });

  // Focus follows the step (not on opening, where the title field takes it), so a screen reader hears
  // which step this is and Tab continues from its top.
  const headingRef = useRef<HTMLHeadingElement>(null);
  const [moves, setMoves] = useState(0);
  useEffect(() => {
    if (moves > 0) headingRef.current?.focus();
  }, [moves]);
  const goTo = (next: number) => {
    setMoves((count) => count + 1);
    setStep(next);
  };

  const save = useSaveAssignment({
    courseId,
    form,
    onSaved: (saved, request) => {
      // Only a manager creates, and managers get the editor view; anything else just opens the assignment.
      if (saved.view !== 'editor') {
        draft.stop();
        onCreated(saved.id);
        return;
      }
      if (request.assignment === null) {
        draft.stop();
        notifySuccess(t('assignments.wizard.created', { title: saved.title }));
      } else {
        notifySuccess(t('assignments.editor.saved', { title: saved.title }));
      }
      setCreated(saved);
      const course = saved.courses.find((entry) => entry.course_id === courseId);
      // What was saved is the new starting point: later changes are what a PATCH sends.
      form.reset(course ? assignmentValues(saved, course) : request.values);
    },
  });

  /** Leaving Details saves it first (creates the assignment the first time), then goes to `target`. */
  const saveDetails = (target: number) =>
    form.handleSubmit((values) => {
      if (created !== null && !isDirty) goTo(target);
      else save.mutate({ values, assignment: created }, { onSuccess: () => goTo(target) });
    });

  /**
   * Back to Details from a later step: the form starts again from the assignment as stored, since the
   * reference run saves the code it ran as the reference solution, and a PATCH sends every field.
   */
  const showDetails = () => {
    const stored = queryClient.getQueryData(detailQuery.queryKey);
    if (stored?.assignment.view === 'editor') form.reset(assignmentValues(stored.assignment, stored.course));
    goTo(DETAILS);
  };

  const chooseStep = (index: number) => {
    if (!canSelect || index === step) return;
    if (step === DETAILS) void saveDetails(index)();
    else if (index === DETAILS) showDetails();
    else goTo(index);
  };

  const finish = () => {
    if (created !== null) onCreated(created.id);
  };

  const requestClose = () => {
    if (!isDirty) {
      onClose();
      return;
    }
    confirmDiscard(t, () => {
      // Throwing the changes away throws the draft away too; a reload or a link keeps it.
      if (created === null) draft.stop();
      onClose();
    });
  };
  useEffect(() => {
    closeRef.current = requestClose;
  });

  const steps = [
    {
      id: 'details',
      label: t('assignments.wizard.details'),
      description: t('assignments.wizard.detailsDescription'),
    },
    {
      id: 'tests',
      label: t('assignments.wizard.tests'),
      description: t('assignments.wizard.testsDescription'),
    },
    {
      id: 'reference',
      label: t('assignments.wizard.reference'),
      description: t('assignments.wizard.referenceDescription'),
    },
  ];
  const heading = (index: number) => (
    <StepHeading ref={headingRef} step={index + 1} total={STEP_COUNT} name={steps[index]?.label ?? ''} />
  );

  const stepContent = (index: number) => {
    if (index === DETAILS) {
      return (
        <form noValidate onSubmit={saveDetails(TESTS)}>
          <Stack gap="lg">
            {heading(DETAILS)}
            {draft.restored !== null && created === null ? (
              <Alert color="blue" title={t('assignments.wizard.draftRestored')} role="status">
                <Stack gap="xs" align="flex-start">
                  <Text size="sm">
                    {t('assignments.wizard.draftRestoredText', {
                      date: format.dateTime(draft.restored.savedAt),
                    })}
                  </Text>
                  <Button
                    size="xs"
                    variant="default"
                    onClick={() => {
                      draft.discard();
                      notifySuccess(t('assignments.wizard.draftDiscarded'));
                    }}
                  >
                    {t('assignments.wizard.discardDraft')}
                  </Button>
                </Stack>
              </Alert>
            ) : null}
            <AssignmentFormFields form={form} courseTimeZone={timeZone} />
            {created !== null ? (
              <AttachmentsField assignmentId={created.id} courseId={courseId} />
            ) : (
              <Text size="sm" c="dimmed">
                {t('assignments.wizard.attachmentsLater')}
              </Text>
            )}
            <Group justify="flex-end" gap="xs">
              {created === null ? (
                <Button variant="default" onClick={requestClose}>
                  {t('common.cancel')}
                </Button>
              ) : null}
              <Button
                type="submit"
                loading={save.isPending}
                leftSection={<IconDeviceFloppy size={16} aria-hidden />}
              >
                {created === null
                  ? t('assignments.wizard.createAndAddTests')
                  : t('assignments.wizard.saveAndContinue')}
              </Button>
            </Group>
          </Stack>
        </form>
      );
    }
    if (created === null) return null;
    if (index === TESTS) {
      return (
        <Stack gap="lg">
          {heading(TESTS)}
          <Text size="sm">{t('assignments.wizard.testsIntro')}</Text>
          <TestCaseManager assignmentId={created.id} courseId={courseId} headingOrder={4} />
          <StepNav
            onBack={showDetails}
            onLater={finish}
            next={{ label: t('assignments.wizard.next'), onClick: () => goTo(REFERENCE) }}
          />
        </Stack>
      );
    }
    return (
      <Stack gap="lg">
        {heading(REFERENCE)}
        <Text size="sm">{t('assignments.wizard.referenceIntro')}</Text>
        <ReferenceStep assignmentId={created.id} courseId={courseId} />
        <StepNav
          onBack={() => goTo(TESTS)}
          next={{ label: t('assignments.wizard.finish'), onClick: finish }}
        />
      </Stack>
    );
  };

  return (
    <Stepper
      active={step}
      onStepClick={chooseStep}
      allowNextStepsSelect={false}
      // Stacked on phones: three labels side by side do not fit 390 px.
      orientation={isPhone ? 'vertical' : 'horizontal'}
      size="sm"
    >
      {steps.map((entry, index) => (
        <Stepper.Step
          key={entry.id}
          label={entry.label}
          description={isPhone ? undefined : entry.description}
          allowStepSelect={canSelect}
          aria-current={index === step ? 'step' : undefined}
          aria-disabled={!canSelect && index !== step ? true : undefined}
        >
          {stepContent(index)}
        </Stepper.Step>
      ))}
    </Stepper>
  );
}
