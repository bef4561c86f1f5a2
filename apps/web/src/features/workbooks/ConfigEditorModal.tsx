import {
  Button,
  Group,
  Modal,
  NumberInput,
  SimpleGrid,
  Stack,
  Tabs,
  Text,
  TextInput,
  Textarea,
} from '@mantine/core';
import { modals } from '@mantine/modals';
import { WORKBOOK_LIMITS, WorkbookConfigUpdate, type WorkbookConfig } from '@kadai/contracts';
import { useState } from 'react';
import { Controller, useForm, useWatch, type Path } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../ui/errors.ts';
import { applyFieldErrors, schemaRule } from '../../ui/form.ts';
import { Markdown } from '../../ui/Markdown.tsx';
import { notifySuccess } from '../../ui/notify.ts';
import { StarterField, type StarterChoice, type StarterFile } from './StarterField.tsx';
import { useConfigMutations } from './useConfigMutations.tsx';

type Amount = number | '';
interface Values {
  name: string;
  description: string;
  lifetime_minutes: Amount;
  max_extension_minutes: Amount;
  memory_mb: Amount;
  cpu_seconds: Amount;
}
type AmountField = 'lifetime_minutes' | 'max_extension_minutes' | 'memory_mb' | 'cpu_seconds';

const DEFAULTS: Values = {
  name: '',
  description: '',
  lifetime_minutes: 60,
  max_extension_minutes: 60,
  memory_mb: 512,
  cpu_seconds: 600,
};
const MAX_DESCRIPTION = 5000;

function valuesOf(config: WorkbookConfig | null): Values {
  if (!config) return DEFAULTS;
  const { name, description, lifetime_minutes, max_extension_minutes, memory_mb, cpu_seconds } = config;
  return { name, description, lifetime_minutes, max_extension_minutes, memory_mb, cpu_seconds };
}

/** The bounds of each amount, from the contract, so the form and the server agree. */
const AMOUNTS: { field: AmountField; min: number; max: number }[] = [
  {
    field: 'lifetime_minutes',
    min: WORKBOOK_LIMITS.minLifetimeMinutes,
    max: WORKBOOK_LIMITS.maxLifetimeMinutes,
  },
  { field: 'max_extension_minutes', min: 0, max: WORKBOOK_LIMITS.maxExtensionMinutes },
  { field: 'memory_mb', min: WORKBOOK_LIMITS.minMemoryMb, max: WORKBOOK_LIMITS.maxMemoryMb },
  { field: 'cpu_seconds', min: WORKBOOK_LIMITS.minCpuSeconds, max: WORKBOOK_LIMITS.maxCpuSeconds },
];
const FIELDS: Path<Values>[] = ['name', 'description', ...AMOUNTS.map((amount) => amount.field)];

/** Creates a configuration, or edits one (`config`): name, description, a session's limits, the starter. */
export function ConfigEditorModal({
  courseId,
  config,
  onClose,
}: {
  courseId: number;
  config: WorkbookConfig | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { create, update } = useConfigMutations(courseId);
  const form = useForm<Values>({ defaultValues: valuesOf(config) });
  const [starterChoice, setStarterChoice] = useState<StarterChoice>(config ? 'keep' : 'empty');
  const [starterFile, setStarterFile] = useState<StarterFile | null>(null);
  const [starterError, setStarterError] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [tab, setTab] = useState<string | null>('write');

  const submit = form.handleSubmit(async (values) => {
    setProblem(null);
    if (starterChoice === 'file' && !starterFile) {
      setStarterError(t('workbook.editor.starterMissing'));
      return;
    }
    const starter =
      starterChoice === 'file' && starterFile
        ? starterFile.notebook
        : starterChoice === 'empty'
          ? { cells: [] }
          : undefined;
    const fields = {
      name: values.name.trim(),
      description: values.description,
      lifetime_minutes: Number(values.lifetime_minutes),
      max_extension_minutes: Number(values.max_extension_minutes),
      memory_mb: Number(values.memory_mb),
      cpu_seconds: Number(values.cpu_seconds),
    };
    try {
      const saved = config
        ? await update.mutateAsync({ id: config.id, body: { ...fields, ...(starter ? { starter } : {}) } })
        : await create.mutateAsync({ course: courseId, ...fields, starter: starter ?? { cells: [] } });
      notifySuccess(t(config ? 'workbook.editor.saved' : 'workbook.editor.created', { name: saved.name }));
      onClose();
    } catch (error) {
      if (!applyFieldErrors(error, form.setError, FIELDS)) setProblem(errorMessage(error, t));
    }
  });

  // Closing asks first when something was changed, as the forum editor does.
  const close = () => {
    if (!form.formState.isDirty && starterFile === null) {
      onClose();
      return;
    }
    modals.openConfirmModal({
      title: t('workbook.editor.discardTitle'),
      children: <Text size="sm">{t('common.confirmDiscard')}</Text>,
      labels: { confirm: t('workbook.editor.discard'), cancel: t('common.cancel') },
      confirmProps: { color: 'red' },
      onConfirm: onClose,
    });
  };

  const description = useWatch({ control: form.control, name: 'description' });
  return (
    <Modal
      opened
      onClose={close}
      title={config ? t('workbook.editor.editTitle', { name: config.name }) : t('workbook.editor.newTitle')}
      size="lg"
      closeOnClickOutside={false}
    >
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Stack>
          <TextInput
            label={t('workbook.editor.name')}
            required
            maxLength={200}
            data-autofocus
            error={form.formState.errors.name?.message}
            {...form.register('name', {
              validate: (value) => value.trim().length > 0 || t('workbook.editor.nameRequired'),
            })}
          />
          <Tabs value={tab} onChange={setTab} variant="outline">
            <Tabs.List>
              <Tabs.Tab value="write">{t('workbook.editor.write')}</Tabs.Tab>
              <Tabs.Tab value="preview">{t('workbook.editor.preview')}</Tabs.Tab>
            </Tabs.List>
            <Tabs.Panel value="write" pt="xs">
              <Textarea
                label={t('workbook.editor.description')}
                description={t('workbook.editor.descriptionHint')}
                autosize
                minRows={3}
                maxRows={12}
                maxLength={MAX_DESCRIPTION}
                error={form.formState.errors.description?.message}
                {...form.register('description')}
              />
            </Tabs.Panel>
            <Tabs.Panel value="preview" pt="xs">
              {description.trim() ? (
                <Markdown source={description} />
              ) : (
                <Text size="sm" c="dimmed">
                  {t('workbook.editor.nothingToPreview')}
                </Text>
              )}
            </Tabs.Panel>
          </Tabs>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            {AMOUNTS.map(({ field, min, max }) => (
              <Controller
                key={field}
                control={form.control}
                name={field}
                rules={{
                  validate: schemaRule(
                    WorkbookConfigUpdate.shape[field],
                    t('workbook.editor.range', { min, max }),
                  ),
                }}
                render={({ field: input, fieldState }) => (
                  <NumberInput
                    label={t(`workbook.editor.${field}`)}
                    description={t('workbook.editor.rangeHint', { min, max })}
                    required
                    min={min}
                    max={max}
                    allowDecimal={false}
                    allowNegative={false}
                    value={input.value}
                    onChange={(value) => input.onChange(typeof value === 'number' ? value : '')}
                    onBlur={input.onBlur}
                    error={fieldState.error?.message}
                  />
                )}
              />
            ))}
          </SimpleGrid>
          <StarterField
            choice={starterChoice}
            onChoice={(choice) => {
              setStarterChoice(choice);
              setStarterError(null);
            }}
            file={starterFile}
            onFile={setStarterFile}
            currentCells={config ? config.starter.cells.length : null}
            error={starterError}
          />
          {problem ? (
            <Text size="sm" c="red" role="alert">
              {problem}
            </Text>
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={form.formState.isSubmitting}>
              {config ? t('common.save') : t('workbook.editor.create')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
