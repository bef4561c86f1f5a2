import { Checkbox, Switch } from '@mantine/core';
import type { ReactNode } from 'react';
import { Controller, type Control, type FieldPathByValue, type FieldValues } from 'react-hook-form';

/**
 * A switch or checkbox bound to a boolean form field. Mantine's Switch keeps its own checked state, so
 * `register` alone would not show the form's default value.
 */
export function BooleanField<T extends FieldValues>({
  control,
  name,
  label,
  description,
  disabled,
  kind = 'switch',
}: {
  control: Control<T>;
  name: FieldPathByValue<T, boolean>;
  label: ReactNode;
  description?: ReactNode;
  disabled?: boolean;
  kind?: 'switch' | 'checkbox';
}) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field }) => {
        const props = {
          label,
          description,
          disabled,
          name: field.name,
          ref: field.ref,
          onBlur: field.onBlur,
          checked: field.value === true,
          onChange: (event: React.ChangeEvent<HTMLInputElement>) =>
            field.onChange(event.currentTarget.checked),
        };
        return kind === 'switch' ? <Switch {...props} /> : <Checkbox {...props} />;
      }}
    />
  );
}
