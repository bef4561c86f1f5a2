import { List, Text } from '@mantine/core';
import type { FieldValues, Path, UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { PasswordField } from '../../ui/PasswordField.tsx';

/** 'Your password must : Contain at least 8 characters / Not be too common / Be alphanumerical'. */
function PasswordHints({ id }: { id: string }) {
  const { t } = useTranslation();
  return (
    <div id={id}>
      <Text size="sm" fw={500}>
        {t('auth.password.hintsTitle')}
      </Text>
      <List size="sm" c="dimmed" spacing={2} mt={4}>
        <List.Item>{t('auth.password.hintLength')}</List.Item>
        <List.Item>{t('auth.password.hintCommon')}</List.Item>
        <List.Item>{t('auth.password.hintAlphanumeric')}</List.Item>
      </List>
    </div>
  );
}

interface NewPasswordFieldsProps<T extends FieldValues> {
  form: UseFormReturn<T>;
  /** The form's fields for the password and its confirmation. */
  names: readonly [Path<T>, Path<T>];
  labels: readonly [string, string];
  /** The id of the rules' list, which the password field points at (aria-describedby). */
  hintsId: string;
}

/**
 * A new password and its confirmation under the rules it must meet: registration, a set-password link
 * and the password change. Both are required; the page compares them on submit.
 */
export function NewPasswordFields<T extends FieldValues>({
  form,
  names,
  labels,
  hintsId,
}: NewPasswordFieldsProps<T>) {
  const { t } = useTranslation();
  const rules = { required: t('validation.passwordRequired') };
  const errorOf = (name: Path<T>) => form.getFieldState(name, form.formState).error?.message;
  return (
    <>
      <PasswordHints id={hintsId} />
      <PasswordField
        label={labels[0]}
        autoComplete="new-password"
        required
        aria-describedby={hintsId}
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
