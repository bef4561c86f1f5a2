import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Assignment } from '@kadai/contracts';
import type { UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../ui/errors.ts';
import { applyFieldErrors } from '../../ui/form.ts';
import { notifyError } from '../../ui/notify.ts';
import {
  toAssignmentCreate,
  toAssignmentUpdate,
  type AssignmentFormValues,
  type EditorAssignment,
} from './assignment-form.ts';
import { createAssignment, updateAssignment } from './assignments.api.ts';
import { assignmentKeys } from './assignments.queries.ts';

/** The fields whose server messages are shown under them; anything else is a notification. */
const SERVER_FIELDS = [
  'title',
  'statement',
  'starter_code',
  'entry_file',
  'max_files',
  'reference_solution',
] as const;

export interface SaveAssignment {
  values: AssignmentFormValues;
  /** null: create it; else the assignment being changed (its other courses are sent back as they were). */
  assignment: EditorAssignment | null;
}

/**
 * Creates or changes an assignment from the editor's form: a PATCH of what changed for an existing one.
 * The lists, the detail and the breadcrumb are refreshed before `onSaved` runs.
 */
export function useSaveAssignment({
  courseId,
  form,
  onSaved,
}: {
  courseId: number;
  form: UseFormReturn<AssignmentFormValues>;
  onSaved: (saved: Assignment, request: SaveAssignment) => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();

  const invalidate = async (id: number) => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: assignmentKeys.lists(courseId) }),
      queryClient.invalidateQueries({ queryKey: assignmentKeys.detail(id, courseId) }),
    ]);
    // After the detail: the breadcrumb's resolver reads the title from it.
    await queryClient.invalidateQueries({ queryKey: ['breadcrumb', 'assignment_id', String(id)] });
  };

  return useMutation({
    mutationFn: ({ values, assignment }: SaveAssignment) => {
      if (assignment === null) return createAssignment(toAssignmentCreate(values, courseId));
      const changed = new Set(Object.keys(form.formState.dirtyFields));
      return updateAssignment(assignment.id, toAssignmentUpdate(values, assignment, courseId, changed));
    },
    onSuccess: async (saved, request) => {
      await invalidate(saved.id);
      onSaved(saved, request);
    },
    onError: (error) => {
      if (!applyFieldErrors(error, form.setError, SERVER_FIELDS)) {
        notifyError(errorMessage(error, t), { title: t('assignments.editor.saveFailed') });
      }
    },
  });
}
