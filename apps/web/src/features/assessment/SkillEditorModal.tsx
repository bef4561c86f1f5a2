import { Autocomplete, Button, Group, Modal, Stack, TextInput, Textarea } from '@mantine/core';
import type { Skill } from '@kadai/contracts';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { applyFieldErrors } from '../../ui/form.ts';
import { errorMessage } from '../../ui/errors.ts';
import { notifyError, notifySuccess } from '../../ui/notify.ts';
import type { useAssessmentMutations } from './useAssessmentMutations.tsx';

interface Values {
  name: string;
  skill_type: string;
  description: string;
}

/** Create a skill (`skill` null) or rename it, change its type or description. */
export function SkillEditorModal({
  courseId,
  skill,
  types,
  mutations,
  onClose,
}: {
  courseId: number;
  skill: Skill | null;
  /** The course's types so far, offered while typing. */
  types: string[];
  mutations: ReturnType<typeof useAssessmentMutations>;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const form = useForm<Values>({
    defaultValues: {
      name: skill?.name ?? '',
      skill_type: skill?.skill_type ?? '',
      description: skill?.description ?? '',
    },
  });
  const errors = form.formState.errors;
  const pending = mutations.createSkill.isPending || mutations.updateSkill.isPending;

  const submit = form.handleSubmit(async (values) => {
    const body = {
      name: values.name.trim(),
      skill_type: values.skill_type.trim(),
      description: values.description,
    };
    try {
      if (skill) await mutations.updateSkill.mutateAsync({ id: skill.id, body });
      else await mutations.createSkill.mutateAsync({ course: courseId, ...body });
      notifySuccess(t('assessment.skills.saved', { name: body.name }));
      onClose();
    } catch (error) {
      if (!applyFieldErrors(error, form.setError, ['name', 'skill_type', 'description'])) {
        notifyError(errorMessage(error, t));
      }
    }
  });

  return (
    <Modal
      opened
      onClose={onClose}
      title={skill ? t('assessment.skills.editTitle') : t('assessment.skills.newTitle')}
    >
      <form noValidate onSubmit={(event) => void submit(event)}>
        <Stack>
          <TextInput
            label={t('assessment.skills.name')}
            required
            data-autofocus
            maxLength={100}
            error={errors.name?.message}
            {...form.register('name', {
              validate: (value) => {
                if (!value.trim()) return t('assessment.skills.nameRequired');
                return !value.includes('/') || t('assessment.skills.noSlash');
              },
            })}
          />
          <Controller
            control={form.control}
            name="skill_type"
            rules={{ validate: (value) => value.trim() !== '' || t('assessment.skills.typeRequired') }}
            render={({ field }) => (
              <Autocomplete
                label={t('assessment.skills.type')}
                description={t('assessment.skills.typeHint')}
                required
                maxLength={50}
                data={types}
                value={field.value}
                onChange={field.onChange}
                onBlur={field.onBlur}
                error={errors.skill_type?.message}
              />
            )}
          />
          <Textarea
            label={t('assessment.skills.description')}
            autosize
            minRows={2}
            maxLength={2000}
            error={errors.description?.message}
            {...form.register('description')}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={pending}>
              {skill ? t('common.save') : t('assessment.skills.create')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
