import {
  Input,
  NumberInput,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Textarea,
} from '@mantine/core';
import { TestCaseCreate, TestCaseKind, TestFileName } from '@kadai/contracts';
import { useId } from 'react';
import { Controller, type UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { CodeEditor } from '../../ui/CodeEditor.tsx';
import { schemaRule } from '../../ui/form.ts';
import { useIsPhone } from '../../ui/useIsPhone.ts';
import { TestCasePointsField } from './TestCasePointsField.tsx';
import type { TestCaseFormValues } from './test-case-form.ts';

const MONO = { input: { fontFamily: 'var(--mantine-font-family-monospace)' } };

/**
 * The fields of a test case: the io ones (input, expected output, comparison), the script ones (input,
 * driver, check script) or the pytest ones (the test file's name and module). `counted`: what a saved
 * pytest module's check counted, shown while its points follow the tests.
 */
export function TestCaseFields({
  form,
  counted = null,
}: {
  form: UseFormReturn<TestCaseFormValues>;
  counted?: number | null;
}) {
  const { t } = useTranslation();
  const errors = form.formState.errors;
  const kind = form.watch('kind');
  const comparison = form.watch('comparison');
  const kindLabelId = useId();
  const isPhone = useIsPhone();

  const numberField = (
    name: 'time_limit_ms' | 'memory_limit_mb',
    label: string,
    min: number,
    max: number,
    suffix: string,
    description?: string,
  ) => (
    <Controller
      control={form.control}
      name={name}
      rules={{ required: true, min, max }}
      render={({ field, fieldState }) => (
        <NumberInput
          label={label}
          description={description}
          // Under the input, so the inputs of a row line up whether or not one has a description.
          inputWrapperOrder={['label', 'input', 'description', 'error']}
          value={field.value}
          onChange={(value) => field.onChange(typeof value === 'number' ? value : min)}
          onBlur={field.onBlur}
          min={min}
          max={max}
          allowDecimal={false}
          clampBehavior="strict"
          suffix={suffix}
          error={
            fieldState.error
              ? fieldState.error.message || t('assignments.editor.range', { min, max })
              : undefined
          }
        />
      )}
    />
  );

  return (
    <Stack gap="sm">
      <TextInput
        label={t('testCases.fields.name')}
        required
        data-autofocus
        error={errors.name?.message}
        {...form.register('name', {
          validate: schemaRule(TestCaseCreate.shape.name, t('validation.titleRequired', { max: 200 })),
        })}
      />
      {/*
        The kinds take a row of their own, each a third of it: half a row cut "pytest テストファイル" short.
        On a phone a third is still too narrow in both languages: they stand one above the other.
      */}
      <Stack gap={4}>
        <Text size="sm" fw={500} id={kindLabelId}>
          {t('testCases.fields.kind')}
        </Text>
        <Controller
          control={form.control}
          name="kind"
          render={({ field }) => (
            <SegmentedControl
              aria-labelledby={kindLabelId}
              fullWidth
              orientation={isPhone ? 'vertical' : 'horizontal'}
              value={field.value}
              onChange={(value) => field.onChange(TestCaseKind.catch('io').parse(value))}
              data={TestCaseKind.options.map((value) => ({
                value,
                label: t(`testCases.kinds.${value}`),
              }))}
            />
          )}
        />
      </Stack>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        <Controller
          control={form.control}
          name="visibility"
          render={({ field }) => (
            <Select
              label={t('testCases.fields.visibility')}
              value={field.value}
              onChange={(value) => field.onChange(value ?? 'visible')}
              allowDeselect={false}
              data={(['visible', 'hidden', 'after_due'] as const).map((value) => ({
                value,
                label: t(`assignments.visibility.${value}`),
              }))}
            />
          )}
        />
      </SimpleGrid>
      {/* A pytest test's points have a switch and a note: a row of their own above the limits. */}
      {kind === 'pytest' ? <TestCasePointsField form={form} counted={counted} /> : null}
      <SimpleGrid cols={{ base: 1, sm: kind === 'pytest' ? 2 : 3 }} spacing="sm">
        {kind === 'pytest' ? null : <TestCasePointsField form={form} counted={counted} />}
        {/*
          The limit is CPU time (per test of a pytest file) while a result shows the run's elapsed time,
          sandbox start-up included: a Correct result above its limit is no contradiction once said.
        */}
        {numberField(
          'time_limit_ms',
          t('testCases.fields.timeLimit'),
          100,
          10_000,
          ' ms',
          kind === 'pytest' ? t('testCases.help.timeLimitPytest') : t('testCases.help.timeLimit'),
        )}
        {numberField('memory_limit_mb', t('testCases.fields.memoryLimit'), 32, 1024, ' MB')}
      </SimpleGrid>
      {kind === 'pytest' ? null : (
        <Textarea
          label={t('assignments.tests.stdin')}
          description={kind === 'script' ? t('testCases.help.stdinScript') : undefined}
          autosize
          minRows={3}
          maxRows={12}
          styles={MONO}
          error={errors.stdin?.message}
          {...form.register('stdin')}
        />
      )}
      {kind === 'pytest' ? (
        <>
          <TextInput
            label={t('testCases.fields.testFileName')}
            description={t('testCases.help.testFileName')}
            required
            styles={MONO}
            error={errors.test_file_name?.message}
            {...form.register('test_file_name', {
              validate: schemaRule(TestFileName, t('testCases.help.testFileNameInvalid')),
            })}
          />
          <ScriptField
            form={form}
            name="test_code"
            label={t('testCases.fields.testCode')}
            help={t('testCases.help.testCode')}
            requiredMessage={t('testCases.help.testCodeRequired')}
          />
        </>
      ) : kind === 'io' ? (
        <>
          <Textarea
            label={t('assignments.tests.expected')}
            autosize
            minRows={3}
            maxRows={12}
            styles={MONO}
            error={errors.expected_stdout?.message}
            {...form.register('expected_stdout')}
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <Controller
              control={form.control}
              name="comparison"
              render={({ field }) => (
                <Select
                  label={t('testCases.fields.comparison')}
                  value={field.value}
                  onChange={(value) => field.onChange(value ?? 'whitespace')}
                  allowDeselect={false}
                  data={(['exact', 'whitespace', 'numeric'] as const).map((value) => ({
                    value,
                    label: t(`testCases.comparisons.${value}`),
                  }))}
                />
              )}
            />
            {comparison === 'numeric' ? (
              <Controller
                control={form.control}
                name="tolerance"
                rules={{ min: 0, max: 1e6 }}
                render={({ field, fieldState }) => (
                  <NumberInput
                    label={t('testCases.fields.tolerance')}
                    description={t('testCases.help.tolerance')}
                    value={field.value}
                    onChange={(value) => field.onChange(typeof value === 'number' ? value : 0)}
                    min={0}
                    max={1e6}
                    decimalScale={12}
                    error={fieldState.error ? t('assignments.editor.range', { min: 0, max: 1e6 }) : undefined}
                  />
                )}
              />
            ) : null}
          </SimpleGrid>
        </>
      ) : (
        <>
          <ScriptField
            form={form}
            name="driver"
            label={t('testCases.fields.driver')}
            help={t('testCases.help.driver')}
          />
          <ScriptField
            form={form}
            name="check_script"
            label={t('testCases.fields.checkScript')}
            help={t('testCases.help.checkScript')}
            requiredMessage={t('testCases.help.checkRequired')}
          />
        </>
      )}
    </Stack>
  );
}

function ScriptField({
  form,
  name,
  label,
  help,
  requiredMessage,
}: {
  form: UseFormReturn<TestCaseFormValues>;
  name: 'driver' | 'check_script' | 'test_code';
  label: string;
  help: string;
  /** Set for a field that must not be blank: the message when it is. */
  requiredMessage?: string;
}) {
  const helpId = useId();
  const required = requiredMessage !== undefined;
  return (
    <Controller
      control={form.control}
      name={name}
      rules={
        requiredMessage !== undefined
          ? { validate: (value) => value.trim().length > 0 || requiredMessage }
          : undefined
      }
      render={({ field, fieldState }) => (
        <Input.Wrapper
          label={label}
          description={help}
          descriptionProps={{ id: helpId }}
          labelElement="div"
          required={required}
          error={fieldState.error?.message}
        >
          <CodeEditor
            value={field.value}
            onChange={field.onChange}
            label={label}
            describedBy={helpId}
            minHeight={120}
            maxHeight={360}
          />
        </Input.Wrapper>
      )}
    />
  );
}
