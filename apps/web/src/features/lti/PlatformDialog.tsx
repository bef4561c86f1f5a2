import { Alert, Button, Group, Modal, SimpleGrid, Stack, TagsInput, Text, TextInput } from '@mantine/core';
import { IconAlertCircle, IconAlertTriangle } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { HttpUrl, WebOrigin, type LtiPlatform } from '@kadai/contracts';
import { useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { BooleanField } from '../../ui/BooleanField.tsx';
import { errorMessage } from '../../ui/errors.ts';
import { applyFieldErrors, schemaRule } from '../../ui/form.ts';
import { notifySuccess } from '../../ui/notify.ts';
import { createPlatform, ltiKeys, updatePlatform } from './lti.api.ts';
import {
  PLATFORM_FORM_FIELDS,
  PLATFORM_TEXT_FIELDS,
  emptyPlatformForm,
  normalizeOrigin,
  platformToForm,
  toPlatformBody,
  type PlatformFormValues,
  type PlatformTextField,
} from './platform-form.ts';

const URL_FIELDS = new Set<PlatformTextField>(['issuer', 'auth_url', 'token_url', 'jwks_url']);
const PLACEHOLDERS: Partial<Record<PlatformTextField, string>> = {
  issuer: 'https://lms.example.ac.jp',
  auth_url: 'https://lms.example.ac.jp/mod/lti/auth.php',
  token_url: 'https://lms.example.ac.jp/mod/lti/token.php',
  jwks_url: 'https://lms.example.ac.jp/mod/lti/certs.php',
};

/** Adds a platform by hand (`platform` null) or changes one, registered either way. */
export function PlatformDialog({ platform, onClose }: { platform: LtiPlatform | null; onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const form = useForm<PlatformFormValues>({
    defaultValues: platform ? platformToForm(platform) : emptyPlatformForm(),
  });
  const allowStaff = useWatch({ control: form.control, name: 'allow_staff' });
  const [failure, setFailure] = useState<string | null>(null);

  const save = useMutation({
    mutationFn: (values: PlatformFormValues) =>
      platform
        ? updatePlatform(platform.id, toPlatformBody(values, false))
        : createPlatform(toPlatformBody(values, true)),
    onMutate: () => setFailure(null),
    onSuccess: (saved) => {
      void queryClient.invalidateQueries({ queryKey: ltiKeys.platforms() });
      notifySuccess(t(platform ? 'lti.platforms.saved' : 'lti.platforms.created', { name: saved.name }));
      onClose();
    },
    onError: (error) => {
      if (!applyFieldErrors(error, form.setError, PLATFORM_FORM_FIELDS)) setFailure(errorMessage(error, t));
    },
  });

  const errors = form.formState.errors;
  const required = (value: string) => value.trim() !== '' || t('lti.form.required');
  const urlRule = schemaRule(HttpUrl, t('lti.form.urlInvalid'));
  return (
    <Modal
      opened
      onClose={onClose}
      size="xl"
      title={platform ? t('lti.form.editTitle', { name: platform.name }) : t('lti.form.createTitle')}
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      <form noValidate onSubmit={form.handleSubmit((values) => save.mutate(values))}>
        <Stack gap="md">
          {failure ? (
            <Alert
              color="red"
              icon={<IconAlertCircle aria-hidden />}
              title={t('lti.form.failed')}
              role="alert"
            >
              {failure}
            </Alert>
          ) : null}
          <Text size="sm" c="dimmed">
            {t('lti.form.help')}
          </Text>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            {PLATFORM_TEXT_FIELDS.map((field) => (
              <TextInput
                key={field}
                type={URL_FIELDS.has(field) ? 'url' : 'text'}
                label={t(`lti.form.fields.${field}`)}
                placeholder={PLACEHOLDERS[field]}
                required
                autoComplete="off"
                error={errors[field]?.message}
                {...form.register(field, {
                  validate: (value) => {
                    const filled = required(value);
                    if (filled !== true || !URL_FIELDS.has(field)) return filled;
                    return urlRule(value.trim());
                  },
                })}
              />
            ))}
          </SimpleGrid>
          <Controller
            control={form.control}
            name="deployment_ids"
            rules={{ validate: (ids) => ids.length > 0 || t('lti.form.deploymentRequired') }}
            render={({ field }) => (
              <TagsInput
                label={t('lti.form.fields.deployment_ids')}
                description={t('lti.form.deploymentHelp')}
                required
                value={field.value}
                onChange={(values) =>
                  field.onChange([...new Set(values.map((v) => v.trim()).filter(Boolean))])
                }
                onBlur={field.onBlur}
                ref={field.ref}
                splitChars={[',', ' ']}
                maxTags={50}
                clearable
                error={errors.deployment_ids?.message}
              />
            )}
          />
          <Controller
            control={form.control}
            name="frame_origins"
            rules={{
              validate: (origins) =>
                origins.every((origin) => WebOrigin.safeParse(origin).success) || t('lti.form.originInvalid'),
            }}
            render={({ field }) => (
              <TagsInput
                label={t('lti.form.fields.frame_origins')}
                description={t('lti.form.frameOriginsHelp')}
                placeholder="https://lms.example.ac.jp"
                value={field.value}
                onChange={(values) =>
                  field.onChange([...new Set(values.map(normalizeOrigin).filter(Boolean))])
                }
                onBlur={field.onBlur}
                ref={field.ref}
                splitChars={[',', ' ']}
                maxTags={20}
                clearable
                error={errors.frame_origins?.message}
              />
            )}
          />
          <Group gap="xl" align="flex-start">
            <BooleanField control={form.control} name="enabled" label={t('lti.form.enabled')} />
            <BooleanField
              control={form.control}
              name="allow_staff"
              label={t('lti.form.allowStaff')}
              description={t('lti.form.allowStaffHelp')}
            />
          </Group>
          {allowStaff ? (
            <Alert color="orange" icon={<IconAlertTriangle aria-hidden />} role="status">
              <Text size="sm">{t('lti.form.allowStaffWarning')}</Text>
            </Alert>
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={save.isPending}>
              {platform ? t('common.save') : t('lti.form.create')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
