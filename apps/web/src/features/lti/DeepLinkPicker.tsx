import { Alert, Badge, Button, Checkbox, Group, Radio, Stack, Text } from '@mantine/core';
import { IconAlertCircle, IconSend } from '@tabler/icons-react';
import { useMutation, useQuery } from '@tanstack/react-query';
import type { LtiDeepLinkInfo, LtiPickable } from '@kadai/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CourseZoneContext } from '../../i18n/course-zone.ts';
import { useFormatters } from '../../i18n/format.ts';
import { Deadline } from '../../ui/Deadline.tsx';
import { errorMessage } from '../../ui/errors.ts';
import { Section } from '../../ui/Section.tsx';
import { courseQuery } from '../courses/courses.queries.ts';
import { postToPlatform } from './deep-link-return.ts';
import { chooseDeepLinkItems } from './lti.api.ts';

const keyOf = (item: Pick<LtiPickable, 'kind' | 'id'>) => `${item.kind}:${item.id}`;

/** What an item is, when it is due and what it is worth: the line under its title. */
function ItemDetails({ item }: { item: LtiPickable }) {
  const { t } = useTranslation();
  const format = useFormatters();
  return (
    <Group gap="xs" component="span" wrap="wrap">
      <Badge variant="light" size="sm" color={item.kind === 'quiz' ? 'grape' : 'blue'} component="span">
        {t(`lti.kind.${item.kind}`)}
      </Badge>
      <Text size="xs" component="span">
        {item.due_at ? (
          <>
            {t('lti.deepLink.due')} <Deadline at={item.due_at} />
          </>
        ) : (
          t('lti.deepLink.noDue')
        )}
      </Text>
      {item.max_score !== null ? (
        <Text size="xs" component="span">
          {t('lti.deepLink.maxScore', { score: format.number(item.max_score) })}
        </Text>
      ) : null}
    </Group>
  );
}

/**
 * The course's assignments and quizzes to pick from (one, or several when the LMS takes several);
 * "Add to LMS" has the server sign the answer, which the browser then posts back to the LMS.
 */
export function DeepLinkPicker({ deepLinkId, info }: { deepLinkId: string; info: LtiDeepLinkInfo }) {
  const { t } = useTranslation();
  const course = useQuery({ ...courseQuery(info.course?.id ?? 0), enabled: info.course !== null });
  const [chosen, setChosen] = useState<string[]>([]);
  const [failure, setFailure] = useState<string | null>(null);
  const choose = useMutation({
    mutationFn: () =>
      chooseDeepLinkItems(deepLinkId, {
        items: info.items
          .filter((item) => chosen.includes(keyOf(item)))
          .map((item) => ({ kind: item.kind, id: item.id })),
      }),
    onMutate: () => setFailure(null),
    onSuccess: (answer) => {
      if (!postToPlatform(answer.return_url, answer.jwt)) setFailure(t('lti.deepLink.badReturn'));
    },
    onError: (error) => setFailure(errorMessage(error, t)),
  });
  const isReturning = choose.isSuccess && failure === null;

  const options = info.items.map((item) =>
    info.accept_multiple ? (
      <Checkbox
        key={keyOf(item)}
        value={keyOf(item)}
        label={item.title}
        description={<ItemDetails item={item} />}
      />
    ) : (
      <Radio
        key={keyOf(item)}
        value={keyOf(item)}
        label={item.title}
        description={<ItemDetails item={item} />}
      />
    ),
  );
  const label = t(info.accept_multiple ? 'lti.deepLink.chooseMany' : 'lti.deepLink.chooseOne');

  return (
    <CourseZoneContext value={course.data?.time_zone ?? null}>
      <Section title={info.course?.title ?? ''}>
        {info.items.length === 0 ? (
          <Text size="sm">{t('lti.deepLink.empty')}</Text>
        ) : (
          <form
            noValidate
            onSubmit={(event) => {
              event.preventDefault();
              if (chosen.length > 0) choose.mutate();
            }}
          >
            <Stack gap="md">
              {failure ? (
                <Alert color="red" icon={<IconAlertCircle aria-hidden />} role="alert">
                  {failure}
                </Alert>
              ) : null}
              {info.accept_multiple ? (
                <Checkbox.Group label={label} value={chosen} onChange={setChosen}>
                  <Stack gap="sm" mt="xs">
                    {options}
                  </Stack>
                </Checkbox.Group>
              ) : (
                <Radio.Group label={label} value={chosen[0] ?? null} onChange={(value) => setChosen([value])}>
                  <Stack gap="sm" mt="xs">
                    {options}
                  </Stack>
                </Radio.Group>
              )}
              {isReturning ? (
                <Text size="sm" role="status">
                  {t('lti.deepLink.returning')}
                </Text>
              ) : null}
              <Group justify="flex-end">
                <Button
                  type="submit"
                  leftSection={<IconSend size={16} aria-hidden />}
                  disabled={chosen.length === 0}
                  loading={choose.isPending || isReturning}
                >
                  {t('lti.deepLink.submit')}
                </Button>
              </Group>
            </Stack>
          </form>
        )}
      </Section>
    </CourseZoneContext>
  );
}
