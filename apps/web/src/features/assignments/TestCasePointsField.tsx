import { NumberInput, Stack, Switch } from '@mantine/core';
import { Controller, useWatch, type UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { TestCaseFormValues } from './test-case-form.ts';

const MIN = 0;
const MAX = 1000;

/**
 * A test's points. A pytest test's may follow its collected tests (`points_auto`): the field then shows
 * their count (`counted`, from the last check; empty until it is saved), and typing a number makes the
 * points the editor's own, as the switch does; switching it back on makes them follow again.
 */
export function TestCasePointsField({
  form,
  counted,
}: {
  form: UseFormReturn<TestCaseFormValues>;
  /** The shares the saved module's last check counted; null before a check did. */
  counted: number | null;
}) {
  const { t } = useTranslation();
  const [kind, pointsAuto] = useWatch({ control: form.control, name: ['kind', 'points_auto'] });
  const pytest = kind === 'pytest';
  const follow = pytest && pointsAuto;

  let description: string | undefined;
  if (follow) description = t('testCases.points.followHelp');
  else if (pytest) description = t('testCases.help.pytestPoints');

  return (
    <Stack gap={6}>
      <Controller
        control={form.control}
        name="points"
        rules={{ min: MIN, max: MAX }}
        render={({ field, fieldState }) => (
          <NumberInput
            label={t('testCases.fields.points')}
            description={description}
            // The note reads after the number it explains.
            inputWrapperOrder={['label', 'input', 'description', 'error']}
            placeholder={follow ? t('testCases.points.countedOnSave') : undefined}
            value={follow ? (counted ?? '') : field.value}
            onChange={(value) => {
              // Points typed are the editor's own: they stop following the tests.
              if (follow) form.setValue('points_auto', false, { shouldDirty: true });
              field.onChange(typeof value === 'number' ? value : MIN);
            }}
            onBlur={field.onBlur}
            min={MIN}
            max={MAX}
            allowDecimal={false}
            clampBehavior="strict"
            error={
              fieldState.error
                ? fieldState.error.message || t('assignments.editor.range', { min: MIN, max: MAX })
                : undefined
            }
          />
        )}
      />
      {pytest ? (
        <Controller
          control={form.control}
          name="points_auto"
          render={({ field }) => (
            <Switch
              label={t('testCases.points.follow')}
              checked={field.value}
              onChange={(event) => {
                const on = event.currentTarget.checked;
                field.onChange(on);
                // Turned off, the points start from the count shown rather than a stale number.
                if (!on && counted !== null) form.setValue('points', counted, { shouldDirty: true });
              }}
              onBlur={field.onBlur}
            />
          )}
        />
      ) : null}
    </Stack>
  );
}
