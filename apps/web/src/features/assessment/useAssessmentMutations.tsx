import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  Feedback,
  FeedbackCreate,
  Skill,
  SkillCreate,
  SkillItemsUpdate,
  SkillUpdate,
  Workshop,
  WorkshopCreate,
  WorkshopUpdate,
} from '@kadai/contracts';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../ui/errors.ts';
import { notifyError, notifySuccess } from '../../ui/notify.ts';
import {
  createFeedback,
  createSkill,
  createWorkshop,
  deleteFeedback,
  deleteSkill,
  deleteWorkshop,
  setSkillItems,
  updateFeedback,
  updateSkill,
  updateWorkshop,
} from './assessment.api.ts';
import { assessmentKeys } from './assessment.queries.ts';

/**
 * Editors' changes to a course's skills, feedback and workshops. Each refreshes every assessment query
 * of the course: a skill tagged on an item changes the existence check, the table and every chart.
 */
export function useAssessmentMutations(courseId: number) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: assessmentKeys.course(courseId) });
  const onError = (error: unknown) => notifyError(errorMessage(error, t));

  const createSkillMutation = useMutation({
    mutationFn: (body: SkillCreate) => createSkill(body),
    onSuccess: refresh,
  });
  const updateSkillMutation = useMutation({
    mutationFn: ({ id, body }: { id: number; body: SkillUpdate }) => updateSkill(id, body),
    onSuccess: refresh,
  });
  const skillItems = useMutation({
    mutationFn: ({ id, body }: { id: number; body: SkillItemsUpdate }) => setSkillItems(id, body),
    onSuccess: refresh,
  });
  const removeSkill = useMutation({
    mutationFn: (id: number) => deleteSkill(id),
    onSuccess: refresh,
    onError,
  });

  const saveFeedback = useMutation({
    mutationFn: ({ id, body }: { id: number | null; body: FeedbackCreate }) =>
      id === null ? createFeedback(body) : updateFeedback(id, { body: body.body }),
    onSuccess: refresh,
  });
  const removeFeedback = useMutation({
    mutationFn: (id: number) => deleteFeedback(id),
    onSuccess: refresh,
    onError,
  });

  const createWorkshopMutation = useMutation({
    mutationFn: (body: WorkshopCreate) => createWorkshop(body),
    onSuccess: refresh,
  });
  const updateWorkshopMutation = useMutation({
    mutationFn: ({ id, body }: { id: number; body: WorkshopUpdate }) => updateWorkshop(id, body),
    onSuccess: refresh,
  });
  const removeWorkshop = useMutation({
    mutationFn: (id: number) => deleteWorkshop(id),
    onSuccess: refresh,
    onError,
  });

  const confirmDelete = (title: string, onConfirm: () => void) =>
    modals.openConfirmModal({
      title,
      children: <Text size="sm">{t('common.confirmDelete')}</Text>,
      labels: { confirm: t('common.delete'), cancel: t('common.cancel') },
      confirmProps: { color: 'red' },
      onConfirm,
    });

  return {
    createSkill: createSkillMutation,
    updateSkill: updateSkillMutation,
    skillItems,
    saveFeedback,
    createWorkshop: createWorkshopMutation,
    updateWorkshop: updateWorkshopMutation,
    confirmDeleteSkill: (skill: Skill) =>
      confirmDelete(t('assessment.skills.deleteTitle', { name: skill.name }), () =>
        removeSkill.mutate(skill.id, {
          onSuccess: () => notifySuccess(t('assessment.skills.deleted', { name: skill.name })),
        }),
      ),
    confirmDeleteFeedback: (feedback: Feedback) =>
      confirmDelete(t('assessment.feedback.deleteTitle'), () => removeFeedback.mutate(feedback.id)),
    confirmDeleteWorkshop: (workshop: Workshop) =>
      confirmDelete(t('assessment.workshops.deleteTitle', { title: workshop.title }), () =>
        removeWorkshop.mutate(workshop.id, {
          onSuccess: () => notifySuccess(t('assessment.workshops.deleted', { title: workshop.title })),
        }),
      ),
  };
}
