import { Button, Checkbox, Collapse, Group, Stack, Text, TextInput, UnstyledButton } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconChevronDown, IconChevronRight } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../ui/errors.ts';
import { notifyError, notifySuccess } from '../../ui/notify.ts';
import { updateLeaderboardProfile } from './submissions.api.ts';
import { leaderboardProfileQuery, submissionKeys } from './submissions.queries.ts';

const MAX_NICKNAME = 40;

/** A student's nickname on every leaderboard, or opting out of them. */
export function LeaderboardProfileForm() {
  const { t } = useTranslation();
  const [opened, toggle] = useDisclosure(false);
  const profile = useQuery({ ...leaderboardProfileQuery(), enabled: opened });
  return (
    <Stack gap="xs" mt="sm">
      <UnstyledButton onClick={toggle.toggle} aria-expanded={opened}>
        <Group gap={4}>
          {opened ? <IconChevronDown size={16} aria-hidden /> : <IconChevronRight size={16} aria-hidden />}
          <Text size="sm" fw={500} c="var(--mantine-color-anchor)">
            {t('leaderboard.profile.toggle')}
          </Text>
        </Group>
      </UnstyledButton>
      <Collapse expanded={opened}>
        {profile.data ? (
          <ProfileFields key={`${profile.data.nickname}-${profile.data.opt_out}`} initial={profile.data} />
        ) : null}
      </Collapse>
    </Stack>
  );
}

function ProfileFields({ initial }: { initial: { nickname: string | null; opt_out: boolean } }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [nickname, setNickname] = useState(initial.nickname ?? '');
  const [optOut, setOptOut] = useState(initial.opt_out);
  const tooLong = nickname.trim().length > MAX_NICKNAME;

  const save = useMutation({
    mutationFn: () => updateLeaderboardProfile({ nickname: nickname.trim() || null, opt_out: optOut }),
    onSuccess: async (saved) => {
      queryClient.setQueryData(submissionKeys.leaderboardProfile(), saved);
      notifySuccess(t('leaderboard.profile.saved'));
      await queryClient.invalidateQueries({ queryKey: [...submissionKeys.all, 'leaderboard'] });
    },
    onError: (error) => notifyError(errorMessage(error, t), { title: t('leaderboard.profile.saveFailed') }),
  });

  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (!tooLong) save.mutate();
      }}
    >
      <Stack gap="xs">
        <TextInput
          label={t('leaderboard.profile.nickname')}
          description={t('leaderboard.profile.nicknameHelp')}
          value={nickname}
          onChange={(event) => setNickname(event.currentTarget.value)}
          error={tooLong ? t('validation.maxLength', { max: MAX_NICKNAME }) : undefined}
          disabled={optOut}
        />
        <Checkbox
          label={t('leaderboard.profile.optOut')}
          checked={optOut}
          onChange={(event) => setOptOut(event.currentTarget.checked)}
        />
        <Group>
          <Button type="submit" size="xs" loading={save.isPending}>
            {t('common.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
