import { List, Text } from '@mantine/core';
import type { FieldValues, Path, UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { PasswordField } from '../../ui/PasswordField.tsx';

/**
 * The rules the server enforces (docs/auth.md, "Passwords"). The spec's third hint, 'Be
 * alphanumerical', stood for Django's NumericPasswordValidator: what is refused is a password of
 * digits only, so the hint says that; letters alone, or symbols, are fine.
 */
function PasswordRules() {
  const { t } = useTranslation();
  return (
    <>
      <Text size="sm" fw={500} c="var(--mantine-color-text)">
        {t('auth.password.hintsTitle')}
      </Text>
      <List size="sm" c="dimmed" spacing={2} mt={4} mb={4}>
        <List.Item>{t('auth.password.hintLength')}</List.Item>
        <List.Item>{t('auth.password.hintCommon')}</List.Item>
        <List.Item>{t('auth.password.hintNotNumeric')}</List.Item>
        <List.Item>{t('auth.password.hintNotSimilar')}</List.Item>
      </List>
    </>
  );
}

interface NewPasswordFieldsProps<T extends FieldValues> {
  form: UseFormReturn<T>;
  /** The form's fields for the password and its confirmation. */
  names: readonly [Path<T>, Path<T>];
  labels: readonly [string, string];
}

/**
 * A new password, described by the rules it must meet, and its confirmation: registration, a
 * set-password link and the password change. Both are required; the page compares them on submit.
 */
export function NewPasswordFields<T extends FieldValues>({ form, names, labels }: NewPasswordFieldsProps<T>) {
  const { t } = useTranslation();
  const rules = { required: t('validation.passwordRequired') };
  const errorOf = (name: Path<T>) => form.getFieldState(name, form.formState).error?.message;
  return (
    <>
      <PasswordField
        label={labels[0]}
        // The rules as the field's description: Mantine points the input at them (aria-describedby),
        // beside its error, which a describedby of our own would not survive.
        description={<PasswordRules />}
        descriptionProps={{ component: 'div' }}
        autoComplete="new-password"
        required
        error={errorOf(names[0])}
        {...form.register(names[0], rules)}
      />
      <PasswordField
        label={labels[1]}
        autoComplete="new-password"
        required
        error={errorOf(names[1])}
        {...form.register(names[1], rules)}
      />
    </>
  );
}
