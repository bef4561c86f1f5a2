import { Button, Group, Paper, Stack, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Course } from '@kadai/contracts';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../ui/errors.ts';
import { applyFieldErrors } from '../../ui/form.ts';
import { notifyError, notifySuccess } from '../../ui/notify.ts';
import { updateCourse } from './courses.api.ts';
import { courseKeys } from './courses.queries.ts';
import { CourseFields, type CourseFormValues } from './CourseFields.tsx';

function toForm(course: Course): CourseFormValues {
  return {
    title: course.title,
    description: course.description,
    has_videos: course.has_videos,
    has_assessment: course.has_assessment,
    time_zone: course.time_zone,
  };
}

export function CourseDetailsForm({ course }: { course: Course }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const form = useForm<CourseFormValues>({ defaultValues: toForm(course) });

  const save = useMutation({
    // The zone is sent only when changed: a course that follows the server's default keeps following it.
    mutationFn: ({ time_zone, ...values }: CourseFormValues) =>
      updateCourse(course.id, form.formState.dirtyFields.time_zone ? { ...values, time_zone } : values),
    onSuccess: async (saved) => {
      queryClient.setQueryData(courseKeys.detail(saved.id), saved);
      await queryClient.invalidateQueries({ queryKey: courseKeys.lists() });
      await queryClient.invalidateQueries({ queryKey: ['breadcrumb', 'course_id'] });
      notifySuccess(t('settings.saved'));
    },
    onError: (error) => {
      if (!applyFieldErrors(error, form.setError, ['title', 'description', 'time_zone'])) {
        notifyError(errorMessage(error, t), { title: t('settings.saveFailed') });
      }
    },
  });

  return (
    <Paper
      withBorder
      p="lg"
      radius="md"
      component="form"
      noValidate
      onSubmit={form.handleSubmit((v) => save.mutate(v))}
    >
      <Stack gap="sm">
        <Title order={2} size="h4">
          {t('settings.details')}
        </Title>
        <CourseFields form={form} withTimeZone />
        <Group justify="flex-end">
          <Button type="submit" loading={save.isPending} disabled={!form.formState.isDirty}>
            {t('common.save')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
