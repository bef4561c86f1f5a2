import { Alert, Button, Group, Radio, Select, Stack, Text, TextInput } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { LtiContext, LtiContextLink } from '@kadai/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/client.ts';
import { errorMessage } from '../../ui/errors.ts';
import { Section } from '../../ui/Section.tsx';
import { courseKeys, courseListQuery } from '../courses/courses.queries.ts';
import { linkContext, ltiKeys } from './lti.api.ts';
import { contextName } from './lti-names.ts';

/** The courses a person may link an LMS course to: those they edit (staff: every course). */
const MY_COURSES = { limit: 100, offset: 0, ordering: 'title' } as const;

type Choice = 'new' | 'existing';

/**
 * An LMS course not yet linked to a Kadai course, as its instructor sees it: make a new course for it
 * (titled as in the LMS) or use one of theirs. `onLinked` gets the page the server says comes next.
 */
export function LinkCourseStep({
  context,
  onLinked,
}: {
  context: LtiContext;
  onLinked: (next: string) => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const courses = useQuery(courseListQuery(MY_COURSES));
  const editable = (courses.data?.results ?? []).filter(
    (course) => course.my_role === 'editor' || course.my_role === 'staff',
  );
  const [choice, setChoice] = useState<Choice>('new');
  const [title, setTitle] = useState(context.title);
  const [courseId, setCourseId] = useState<string | null>(null);
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  const link = useMutation({
    mutationFn: (body: LtiContextLink) => linkContext(context.id, body),
    onMutate: () => {
      setFieldError(null);
      setFailure(null);
    },
    onSuccess: (result) => {
      void queryClient.invalidateQueries({ queryKey: ltiKeys.all });
      void queryClient.invalidateQueries({ queryKey: courseKeys.all });
      onLinked(result.next);
    },
    onError: (error) => {
      const message = isApiError(error, 400) ? error.firstFieldMessage('title', 'course_id') : undefined;
      if (message !== undefined) setFieldError(message);
      else setFailure(errorMessage(error, t));
    },
  });

  const submit = () => {
    if (choice === 'new') {
      const trimmed = title.trim();
      if (trimmed === '') setFieldError(t('lti.context.titleRequired'));
      else link.mutate({ title: trimmed });
    } else if (courseId === null) {
      setFieldError(t('lti.context.courseRequired'));
    } else {
      link.mutate({ course_id: Number(courseId) });
    }
  };

  return (
    <Section title={contextName(context)}>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <Stack gap="md">
          <Text size="sm">{t('lti.context.explanation', { platform: context.platform })}</Text>
          {failure ? (
            <Alert color="red" icon={<IconAlertCircle aria-hidden />} role="alert">
              {failure}
            </Alert>
          ) : null}
          <Radio.Group
            label={t('lti.context.choice')}
            value={choice}
            onChange={(value) => {
              setChoice(value === 'existing' ? 'existing' : 'new');
              setFieldError(null);
            }}
          >
            <Stack gap="xs" mt={6}>
              <Radio value="new" label={t('lti.context.createNew')} />
              <Radio value="existing" label={t('lti.context.useExisting')} />
            </Stack>
          </Radio.Group>
          {choice === 'new' ? (
            <TextInput
              label={t('lti.context.newTitle')}
              required
              maxLength={200}
              value={title}
              onChange={(event) => setTitle(event.currentTarget.value)}
              error={fieldError}
            />
          ) : (
            <Select
              label={t('lti.context.course')}
              placeholder={t('lti.context.coursePlaceholder')}
              required
              searchable
              nothingFoundMessage={t('lti.context.noCourses')}
              data={editable.map((course) => ({ value: String(course.id), label: course.title }))}
              value={courseId}
              onChange={setCourseId}
              error={fieldError ?? (courses.isError ? errorMessage(courses.error, t) : null)}
              disabled={courses.isPending}
            />
          )}
          <Group justify="flex-end">
            <Button type="submit" loading={link.isPending}>
              {t(choice === 'new' ? 'lti.context.createSubmit' : 'lti.context.linkSubmit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Section>
  );
}
