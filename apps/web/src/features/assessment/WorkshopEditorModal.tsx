import {
  Button,
  Group,
  Modal,
  MultiSelect,
  Select,
  SimpleGrid,
  Stack,
  TextInput,
  Textarea,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { Workshop } from '@kadai/contracts';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/client.ts';
import { errorMessage } from '../../ui/errors.ts';
import { notifyError, notifySuccess } from '../../ui/notify.ts';
import { browserTimeZone } from '../assignments/dates.ts';
import { membersQuery } from '../courses/courses.queries.ts';
import { memberName } from '../courses/member-name.ts';
import { skillsQuery } from './assessment.queries.ts';
import type { useAssessmentMutations } from './useAssessmentMutations.tsx';
import {
  emptyWorkshopValues,
  toWorkshopBody,
  workshopValues,
  type WorkshopFormValues,
} from './workshop-form.ts';

const FIELDS = ['title', 'description', 'location', 'starts_at', 'ends_at', 'skill', 'participants'] as const;

/** Create a workshop (`workshop` null) or change one: when, where, for which skill, and who is invited. */
export function WorkshopEditorModal({
  courseId,
  workshop,
  mutations,
  onClose,
}: {
  courseId: number;
  workshop: Workshop | null;
  mutations: ReturnType<typeof useAssessmentMutations>;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation();
  const students = useQuery(membersQuery(courseId, 'student'));
  const skills = useQuery(skillsQuery(courseId));
  const form = useForm<WorkshopFormValues>({
    defaultValues: workshop ? workshopValues(workshop) : emptyWorkshopValues(),
  });
  const errors = form.formState.errors;
  const pending = mutations.createWorkshop.isPending || mutations.updateWorkshop.isPending;
  const zone = browserTimeZone();

  const submit = form.handleSubmit(async (values) => {
    const { course, ...body } = toWorkshopBody(values, courseId, workshop);
    try {
      if (workshop) await mutations.updateWorkshop.mutateAsync({ id: workshop.id, body });
      else await mutations.createWorkshop.mutateAsync({ course, ...body });
      notifySuccess(t('assessment.workshops.saved', { title: body.title }));
      onClose();
    } catch (error) {
      let applied = false;
      if (isApiError(error, 400)) {
        for (const field of FIELDS) {
          const message = error.firstFieldMessage(field);
          if (message) {
            form.setError(field, { type: 'server', message });
            applied = true;
          }
        }
      }
      if (!applied) notifyError(errorMessage(error, t));
    }
  });

  const studentOptions = (students.data?.results ?? []).map((student) => ({
    value: String(student.id),
    label: `${memberName(student, i18n.language)} <${student.email}>`,
  }));
  const skillOptions = (skills.data?.results ?? []).map((skill) => ({
    value: String(skill.id),
    label: `${skill.name} (${skill.skill_type})`,
  }));
  const afterStart = (value: string) => {
    const start = Date.parse(form.getValues('starts_at'));
    return (
      !value || Number.isNaN(start) || Date.parse(value) > start || t('assessment.workshops.endBeforeStart')
    );
  };

  return (
    <Modal
      opened
      onClose={onClose}
      size="lg"
      closeOnClickOutside={false}
      title={workshop ? t('assessment.workshops.editTitle') : t('assessment.workshops.newTitle')}
    >
      <form noValidate onSubmit={(event) => void submit(event)}>
        <Stack>
          <TextInput
            label={t('assessment.workshops.title')}
            required
            data-autofocus
            maxLength={200}
            error={errors.title?.message}
            {...form.register('title', {
              validate: (value) => value.trim() !== '' || t('assessment.workshops.titleRequired'),
            })}
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              type="datetime-local"
              label={t('assessment.workshops.startsAt')}
              description={zone}
              required
              error={errors.starts_at?.message}
              {...form.register('starts_at', { required: t('assessment.workshops.dateRequired') })}
            />
            <TextInput
              type="datetime-local"
              label={t('assessment.workshops.endsAt')}
              description={zone}
              required
              error={errors.ends_at?.message}
              {...form.register('ends_at', {
                required: t('assessment.workshops.dateRequired'),
                validate: afterStart,
              })}
            />
          </SimpleGrid>
          <TextInput
            label={t('assessment.workshops.location')}
            maxLength={200}
            error={errors.location?.message}
            {...form.register('location')}
          />
          <Controller
            control={form.control}
            name="skill"
            render={({ field }) => (
              <Select
                label={t('assessment.workshops.skill')}
                placeholder={t('assessment.workshops.noSkill')}
                clearable
                data={skillOptions}
                value={field.value}
                onChange={field.onChange}
                error={errors.skill?.message}
              />
            )}
          />
          <Controller
            control={form.control}
            name="participants"
            render={({ field }) => (
              <MultiSelect
                label={t('assessment.workshops.invited')}
                description={t('assessment.workshops.invitedHint', { count: field.value.length })}
                searchable
                hidePickedOptions
                data={studentOptions}
                value={field.value}
                onChange={field.onChange}
                error={errors.participants?.message}
                nothingFoundMessage={t('assessment.workshops.noStudents')}
              />
            )}
          />
          <Textarea
            label={t('assessment.workshops.description')}
            autosize
            minRows={2}
            maxLength={5000}
            error={errors.description?.message}
            {...form.register('description')}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={pending}>
              {workshop ? t('common.save') : t('assessment.workshops.create')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
