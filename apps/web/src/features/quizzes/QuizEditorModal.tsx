import { Alert, Button, Center, Group, Loader, Modal, Stack, Tabs, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { modals } from '@mantine/modals';
import { IconEye, IconPencil, IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { QuizCourse, QuizUpdate } from '@kadai/contracts';
import { useEffect, useRef, useState, type ReactNode, type RefObject } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { pathTo } from '../../routes/route-table.ts';
import { ErrorState } from '../../ui/ErrorState.tsx';
import { errorMessage } from '../../ui/errors.ts';
import { applyFieldErrors } from '../../ui/form.ts';
import { notifyError, notifySuccess } from '../../ui/notify.ts';
import { QuestionListEditor } from './QuestionListEditor.tsx';
import { QuizFormFields } from './QuizFormFields.tsx';
import { FormPreview } from './FormPreview.tsx';
import {
  emptyQuizValues,
  quizValues,
  toQuestionInput,
  toQuizCourseDates,
  toQuizCreate,
  type EditorQuiz,
  type QuizFormValues,
} from './quiz-form.ts';
import { createQuiz, deleteQuiz, updateQuiz, updateQuizCourse } from './quizzes.api.ts';
import { quizKeys, quizQuery } from './quizzes.queries.ts';

interface Props {
  courseId: number;
  /** The course's time zone: a new quiz closes at 23:59 there. */
  timeZone: string;
  /** null: a new quiz. */
  quizId: number | null;
  onClose: () => void;
  onDeleted: () => void;
}

/** Create or edit a quiz and its window in this course, with a preview; loads the quiz first to edit. */
export function QuizEditorModal({ courseId, timeZone, quizId, onClose, onDeleted }: Props) {
  const { t } = useTranslation();
  const isPhone = useMediaQuery('(max-width: 48em)');
  const quiz = useQuery({ ...quizQuery(quizId ?? 0), enabled: quizId !== null });
  const closeRef = useRef<() => void>(onClose);
  const editorQuiz = quiz.data?.view === 'editor' ? quiz.data : null;
  const quizCourse = editorQuiz?.courses.find((candidate) => candidate.course_id === courseId) ?? null;

  let body: ReactNode;
  if (quizId === null) {
    body = (
      <QuizForm
        courseId={courseId}
        timeZone={timeZone}
        quiz={null}
        quizCourse={null}
        initial={emptyQuizValues(timeZone)}
        onClose={onClose}
        onDeleted={onDeleted}
        closeRef={closeRef}
      />
    );
  } else if (quiz.isError) {
    body = <ErrorState error={quiz.error} onRetry={() => void quiz.refetch()} />;
  } else if (!quiz.data) {
    body = (
      <Center py="xl">
        <Loader aria-label={t('common.loading')} />
      </Center>
    );
  } else if (!editorQuiz || !quizCourse) {
    body = (
      <Alert color="red" role="alert">
        {t('errors.forbidden')}
      </Alert>
    );
  } else {
    body = (
      <QuizForm
        courseId={courseId}
        timeZone={timeZone}
        quiz={editorQuiz}
        quizCourse={quizCourse}
        initial={quizValues(editorQuiz, quizCourse)}
        onClose={onClose}
        onDeleted={onDeleted}
        closeRef={closeRef}
      />
    );
  }

  return (
    <Modal
      opened
      onClose={() => closeRef.current()}
      title={quizId === null ? t('quiz.editor.newTitle') : t('quiz.editor.editTitle')}
      size="min(1000px, 96vw)"
      fullScreen={isPhone}
      closeOnClickOutside={false}
    >
      {body}
    </Modal>
  );
}

function QuizForm({
  courseId,
  timeZone,
  quiz,
  quizCourse,
  initial,
  onClose,
  onDeleted,
  closeRef,
}: Omit<Props, 'quizId'> & {
  quiz: EditorQuiz | null;
  quizCourse: QuizCourse | null;
  initial: QuizFormValues;
  closeRef: RefObject<() => void>;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const form = useForm<QuizFormValues>({ defaultValues: initial, mode: 'onTouched' });
  const [tab, setTab] = useState<string | null>('edit');
  const locked = quiz !== null && quiz.submission_count > 0;

  const confirmClose = () => {
    if (!form.formState.isDirty) {
      onClose();
      return;
    }
    modals.openConfirmModal({
      title: t('quiz.editor.discardTitle'),
      children: <Text size="sm">{t('common.confirmDiscard')}</Text>,
      labels: { confirm: t('quiz.editor.discard'), cancel: t('common.cancel') },
      confirmProps: { color: 'red' },
      onConfirm: onClose,
    });
  };
  useEffect(() => {
    closeRef.current = confirmClose;
  });

  const save = useMutation({
    mutationFn: async (values: QuizFormValues) => {
      if (quiz === null || quizCourse === null) return createQuiz(toQuizCreate(values, courseId));
      const dirty = form.formState.dirtyFields;
      const update: QuizUpdate = {};
      if (dirty.title) update.title = values.title.trim();
      if (dirty.description) update.description = values.description;
      if (!locked && dirty.questions) update.questions = values.questions.map(toQuestionInput);
      let saved = quiz;
      if (Object.keys(update).length > 0) {
        const result = await updateQuiz(quiz.id, update);
        if (result.view === 'editor') saved = result;
      }
      const dateFields = [
        'opens_at',
        'closes_at',
        'time_limit',
        'scores_preset',
        'scores_at',
        'answers_preset',
        'answers_at',
      ] as const;
      if (dateFields.some((field) => dirty[field])) {
        await updateQuizCourse(quizCourse.id, toQuizCourseDates(values));
      }
      return saved;
    },
    onSuccess: async (saved) => {
      await queryClient.invalidateQueries({ queryKey: quizKeys.all });
      await queryClient.invalidateQueries({ queryKey: ['breadcrumb', 'quiz_id', String(saved.id)] });
      if (quiz === null) {
        notifySuccess(t('quiz.editor.created', { title: saved.title }));
        const created = saved.courses.find((candidate) => candidate.course_id === courseId);
        if (created) {
          await navigate(
            pathTo('QuizDetailV2', { course_id: courseId, quiz_id: saved.id, quiz_course_id: created.id }),
          );
        } else {
          onClose();
        }
      } else {
        notifySuccess(t('quiz.editor.saved', { title: saved.title }));
        onClose();
      }
    },
    onError: (error) => {
      if (!applyFieldErrors(error, form.setError, ['title', 'description', 'opens_at', 'closes_at'])) {
        notifyError(errorMessage(error, t), { title: t('quiz.editor.saveFailed') });
      }
    },
  });

  const remove = useMutation({
    mutationFn: () => deleteQuiz(quiz?.id),
    onSuccess: async () => {
      if (quiz) queryClient.removeQueries({ queryKey: quizKeys.quiz(quiz.id) });
      await queryClient.invalidateQueries({ queryKey: quizKeys.lists(courseId) });
      notifySuccess(t('quiz.editor.deleted', { title: quiz?.title ?? '' }));
      onDeleted();
    },
    onError: (error) => notifyError(errorMessage(error, t), { title: t('quiz.editor.deleteFailed') }),
  });

  const confirmDelete = () =>
    modals.openConfirmModal({
      title: t('quiz.editor.delete'),
      children: (
        <Stack gap="xs">
          <Text size="sm">{t('common.confirmDelete')}</Text>
          <Text size="sm" fw={600}>
            {quiz?.title}
          </Text>
        </Stack>
      ),
      labels: { confirm: t('common.delete'), cancel: t('common.cancel') },
      confirmProps: { color: 'red' },
      onConfirm: () => remove.mutate(),
    });

  return (
    <form
      noValidate
      onSubmit={form.handleSubmit(
        (values) => save.mutate(values),
        // A problem on the preview tab's hidden form: go back to show it.
        () => setTab('edit'),
      )}
    >
      <Stack gap="lg">
        <Tabs value={tab} onChange={setTab}>
          <Tabs.List aria-label={t('quiz.editor.views')}>
            <Tabs.Tab value="edit" leftSection={<IconPencil size={16} aria-hidden />}>
              {t('quiz.editor.editTab')}
            </Tabs.Tab>
            <Tabs.Tab value="preview" leftSection={<IconEye size={16} aria-hidden />}>
              {t('quiz.editor.previewTab')}
            </Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="edit" pt="md">
            <Stack gap="lg">
              <QuizFormFields form={form} courseTimeZone={timeZone} />
              <QuestionListEditor form={form} locked={locked} submissionCount={quiz?.submission_count ?? 0} />
            </Stack>
          </Tabs.Panel>
          <Tabs.Panel value="preview" pt="md">
            {tab === 'preview' ? <FormPreview values={form.getValues()} /> : null}
          </Tabs.Panel>
        </Tabs>
        <Group justify="space-between">
          <Group gap="xs">
            {quiz ? (
              <Button
                color="red"
                variant="outline"
                leftSection={<IconTrash size={16} aria-hidden />}
                onClick={confirmDelete}
                loading={remove.isPending}
              >
                {t('quiz.editor.delete')}
              </Button>
            ) : null}
          </Group>
          <Group gap="xs">
            <Button variant="default" onClick={confirmClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={save.isPending}>
              {quiz ? t('common.save') : t('quiz.editor.create')}
            </Button>
          </Group>
        </Group>
      </Stack>
    </form>
  );
}
