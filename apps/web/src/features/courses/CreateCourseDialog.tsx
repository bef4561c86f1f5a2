import { Button, Group, Modal, Stack } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { pathTo } from '../../routes/route-table.ts';
import { errorMessage } from '../../ui/errors.ts';
import { applyFieldErrors } from '../../ui/form.ts';
import { notifyError, notifySuccess } from '../../ui/notify.ts';
import { createCourse } from './courses.api.ts';
import { courseKeys } from './courses.queries.ts';
import { CourseFields, EMPTY_COURSE, type CourseFormValues } from './CourseFields.tsx';

/** Staff: a new course; it opens on its Members page so editors and students can be added next. */
export function CreateCourseDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const form = useForm<CourseFormValues>({ defaultValues: EMPTY_COURSE });

  const close = () => {
    form.reset(EMPTY_COURSE);
    onClose();
  };

  const create = useMutation({
    mutationFn: createCourse,
    onSuccess: async (course) => {
      queryClient.setQueryData(courseKeys.detail(course.id), course);
      await queryClient.invalidateQueries({ queryKey: courseKeys.lists() });
      notifySuccess(t('courses.create.done', { title: course.title }));
      close();
      navigate(pathTo('Members', { course_id: course.id }));
    },
    onError: (error) => {
      if (!applyFieldErrors(error, form.setError, ['title', 'description'])) {
        notifyError(errorMessage(error, t), { title: t('courses.create.failed') });
      }
    },
  });

  return (
    <Modal opened={opened} onClose={close} title={t('courses.create.title')} size="lg" centered>
      <form noValidate onSubmit={form.handleSubmit((values) => create.mutate(values))}>
        <Stack gap="sm">
          <CourseFields form={form} flagKind="checkbox" autoFocus />
          <Group justify="flex-end" mt="md">
            <Button variant="default" onClick={close}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={create.isPending}>
              {t('courses.create.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
