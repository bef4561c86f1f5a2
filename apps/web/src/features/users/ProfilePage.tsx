import {
  Anchor,
  Badge,
  Button,
  Group,
  MultiSelect,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Language, Role, UserSelfUpdate, type User, type UserUpdate } from '@kadai/contracts';
import { useEffect, useRef } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { pathTo } from '../../routes/route-table.ts';
import { PageLoader } from '../../ui/PageLoader.tsx';
import { NotFoundPage } from '../../ui/NotFoundPage.tsx';
import { isApiError } from '../../api/client.ts';
import { LANGUAGES, LANGUAGE_NAMES } from '../../i18n/index.ts';
import { useFormatters } from '../../i18n/format.ts';
import { BooleanField } from '../../ui/BooleanField.tsx';
import { ErrorState } from '../../ui/ErrorState.tsx';
import { errorMessage } from '../../ui/errors.ts';
import { applyFieldErrors, schemaRule } from '../../ui/form.ts';
import { notifyError, notifySuccess } from '../../ui/notify.ts';
import { loadUserInfo } from '../auth/sign-in.ts';
import { useSession } from '../auth/session.ts';
import { LinkedIdentitiesPanel } from '../identity/LinkedIdentitiesPanel.tsx';
import { ErasePanel } from '../privacy/ErasePanel.tsx';
import { MyDataPanel } from '../privacy/MyDataPanel.tsx';
import { SetPasswordLinkPanel } from './SetPasswordLinkPanel.tsx';
import { updateUser } from './users.api.ts';
import { rolesQuery, userKeys, userQuery } from './users.queries.ts';

interface ProfileForm {
  first_name: string;
  last_name: string;
  display_lang: Language;
  roles: Role[];
  is_staff: boolean;
  is_active: boolean;
}

function toForm(user: User): ProfileForm {
  return {
    first_name: user.first_name,
    last_name: user.last_name,
    display_lang: user.display_lang,
    roles: user.roles,
    is_staff: user.is_staff,
    is_active: user.is_active,
  };
}

export function ProfilePage() {
  const params = useParams();
  const ownId = useSession((s) => s.userId);
  const requested = params.userId === undefined ? ownId : Number(params.userId);
  if (requested === null || !Number.isInteger(requested) || requested < 1) return <NotFoundPage />;
  return <Profile userId={requested} isOwn={requested === ownId} />;
}

function Profile({ userId, isOwn }: { userId: number; isOwn: boolean }) {
  const { t } = useTranslation();
  const isStaff = useSession((s) => s.is_staff);
  const user = useQuery(userQuery(userId));
  if (isApiError(user.error, 404) || isApiError(user.error, 403)) return <NotFoundPage />;
  if (user.isError) return <ErrorState error={user.error} onRetry={() => void user.refetch()} />;
  if (!user.data) return <PageLoader />;
  return (
    <Stack gap="lg" maw={760} mx="auto">
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={1}>{isOwn ? t('profile.ownHeading') : t('profile.heading')}</Title>
          <Text c="dimmed">{user.data.email}</Text>
        </div>
        {isOwn ? (
          <Anchor component={Link} to={pathTo('PasswordChange')}>
            {t('profile.changePassword')}
          </Anchor>
        ) : null}
      </Group>
      {/* Keyed by the loaded version so the form starts from what the server holds. */}
      <ProfileForm key={user.data.id} user={user.data} isOwn={isOwn} />
      <AccountFacts user={user.data} />
      {isStaff || isOwn ? <LinkedIdentitiesPanel userId={user.data.id} canManage={isStaff} /> : null}
      {isStaff ? <SetPasswordLinkPanel user={user.data} /> : null}
      {isOwn ? <MyDataPanel /> : null}
      {isStaff && !isOwn ? <ErasePanel user={user.data} onErased={() => void user.refetch()} /> : null}
    </Stack>
  );
}

function AccountFacts({ user }: { user: User }) {
  const { t } = useTranslation();
  const format = useFormatters();
  return (
    <Paper withBorder p="lg" radius="md">
      <Title order={2} size="h4" mb="sm">
        {t('profile.account')}
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs">
        <Text size="sm">
          {t('profile.dateJoined')}: {format.dateTime(user.date_joined)}
        </Text>
        <Text size="sm">
          {t('profile.lastLogin')}: {user.last_login ? format.dateTime(user.last_login) : t('profile.never')}
        </Text>
        {user.last_name_ja || user.first_name_ja ? (
          <Text size="sm">
            {t('profile.japaneseName')}: {`${user.last_name_ja} ${user.first_name_ja}`.trim()}
          </Text>
        ) : null}
        <Group gap="xs">
          <Text size="sm">{t('profile.passwordSet')}:</Text>
          <Badge color={user.has_password ? 'teal' : 'gray'} variant="light">
            {user.has_password ? t('common.yes') : t('common.no')}
          </Badge>
        </Group>
      </SimpleGrid>
    </Paper>
  );
}

function ProfileForm({ user, isOwn }: { user: User; isOwn: boolean }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const isStaff = useSession((s) => s.is_staff);
  const roles = useQuery({ ...rolesQuery(), enabled: isStaff });
  const form = useForm<ProfileForm>({ defaultValues: toForm(user) });
  const sessionLanguage = useSession((s) => s.displayLang);
  const { resetField, getValues } = form;
  const languageEdited = () => getValues('display_lang') !== form.formState.defaultValues?.display_lang;
  // The header's switcher changes one's own language while this form is open: follow it unless the
  // field was edited here, so saving the names does not write the old language back. Only when the
  // language changed: resetField renews formState, which would run this again, and again (a re-render
  // from elsewhere, such as the URL's #my-data, started that loop).
  const followedLanguage = useRef<Language | null>(null);
  useEffect(() => {
    if (followedLanguage.current === sessionLanguage) return;
    followedLanguage.current = sessionLanguage;
    if (isOwn && getValues('display_lang') === form.formState.defaultValues?.display_lang) {
      resetField('display_lang', { defaultValue: sessionLanguage });
    }
  }, [isOwn, sessionLanguage, resetField, getValues, form.formState]);

  const toBody = (values: ProfileForm): UserUpdate => {
    const body: UserUpdate = { first_name: values.first_name, last_name: values.last_name };
    if (!isOwn || languageEdited()) body.display_lang = values.display_lang;
    if (isStaff) {
      body.roles = values.roles;
      // Staff cannot take away their own staff rights or lock themselves out by accident.
      if (!isOwn) {
        body.is_staff = values.is_staff;
        body.is_active = values.is_active;
      }
    }
    return body;
  };

  const save = useMutation({
    mutationFn: (body: UserUpdate) => updateUser(user.id, body),
    onSuccess: async (saved, body) => {
      queryClient.setQueryData(userKeys.detail(saved.id), saved);
      form.reset(toForm(saved));
      notifySuccess(t('profile.saved'));
      if (isOwn) {
        // The language changed here (if it did) is what was saved; one changed in the header meanwhile stays.
        if (body.display_lang !== undefined) useSession.getState().setDisplayLang(saved.display_lang);
        await loadUserInfo().catch(() => undefined);
      }
    },
    onError: (error) => {
      if (!applyFieldErrors(error, form.setError, ['first_name', 'last_name', 'display_lang', 'roles'])) {
        notifyError(errorMessage(error, t), { title: t('profile.saveFailed') });
      }
    },
  });

  const errors = form.formState.errors;
  const nameRule = schemaRule(UserSelfUpdate.shape.first_name, t('validation.maxLength', { max: 150 }));
  const roleOptions = (roles.data?.roles ?? Role.options).map((role) => ({
    value: role,
    label: t(`roles.${role}`),
  }));

  return (
    <Paper
      withBorder
      p="lg"
      radius="md"
      component="form"
      noValidate
      onSubmit={form.handleSubmit((v) => save.mutate(toBody(v)))}
    >
      <Stack gap="md">
        <Title order={2} size="h4">
          {t('profile.details')}
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput
            label={t('profile.lastName')}
            autoComplete="family-name"
            error={errors.last_name?.message}
            {...form.register('last_name', { validate: nameRule })}
          />
          <TextInput
            label={t('profile.firstName')}
            autoComplete="given-name"
            error={errors.first_name?.message}
            {...form.register('first_name', { validate: nameRule })}
          />
        </SimpleGrid>
        <Controller
          control={form.control}
          name="display_lang"
          render={({ field }) => (
            <Select
              label={t('profile.displayLanguage')}
              data={LANGUAGES.map((language) => ({ value: language, label: LANGUAGE_NAMES[language] }))}
              value={field.value}
              onChange={(value) => {
                const parsed = Language.safeParse(value);
                if (parsed.success) field.onChange(parsed.data);
              }}
              allowDeselect={false}
              maw={320}
            />
          )}
        />
        {isStaff ? (
          <>
            <Controller
              control={form.control}
              name="roles"
              render={({ field }) => (
                <MultiSelect
                  label={t('profile.roles')}
                  data={roleOptions}
                  value={field.value}
                  onChange={(values) => field.onChange(values.flatMap((v) => Role.safeParse(v).data ?? []))}
                  error={errors.roles?.message}
                />
              )}
            />
            <Group gap="xl">
              <BooleanField
                control={form.control}
                name="is_staff"
                label={t('profile.isStaff')}
                disabled={isOwn}
                description={isOwn ? t('profile.ownStaffLocked') : undefined}
              />
              <BooleanField
                control={form.control}
                name="is_active"
                label={t('profile.isActive')}
                disabled={isOwn}
              />
            </Group>
          </>
        ) : null}
        <Group justify="flex-end">
          <Button type="submit" loading={save.isPending} disabled={!form.formState.isDirty}>
            {t('common.save')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
