import { ActionIcon, Button, Checkbox, Group, Radio, Stack, Text, TextInput } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconPlus, IconTrash } from '@tabler/icons-react';
import { MAX_OPTIONS } from '@kadai/contracts';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { moveItem } from './answers.ts';
import { nextOptionId, type QuestionFormValues } from './quiz-form.ts';

/**
 * The options of a choice or ordering question, with the answer key beside them: the radio of the
 * correct option (single), the boxes of the correct ones (multiple), or, for ordering, the list itself
 * in the correct order.
 */
export function OptionListEditor({
  number,
  value,
  onChange,
}: {
  number: number;
  value: QuestionFormValues;
  onChange: (value: QuestionFormValues) => void;
}) {
  const { t } = useTranslation();
  const name = useId();
  const options = value.options;
  const setOptions = (next: QuestionFormValues['options']) => {
    const ids = new Set(next.map((option) => option.id));
    onChange({
      ...value,
      options: next,
      single_correct: ids.has(value.single_correct) ? value.single_correct : '',
      multiple_correct: value.multiple_correct.filter((id) => ids.has(id)),
    });
  };
  const ordering = value.kind === 'ordering';

  return (
    <Stack gap="xs">
      <Text size="sm" fw={500}>
        {ordering ? t('quiz.editor.orderingItems') : t('quiz.editor.options')}
      </Text>
      <Text size="xs" c="dimmed">
        {ordering
          ? t('quiz.editor.orderingHelp')
          : value.kind === 'single'
            ? t('quiz.editor.singleHelp')
            : t('quiz.editor.multipleHelp')}
      </Text>
      {options.map((option, index) => {
        const label = ordering
          ? t('quiz.editor.itemLabel', { question: number, number: index + 1 })
          : t('quiz.editor.optionLabel', { question: number, number: index + 1 });
        return (
          <Group key={option.id} gap="xs" wrap="nowrap" align="center">
            {value.kind === 'single' ? (
              <Radio
                name={name}
                aria-label={t('quiz.editor.markCorrect', { option: label })}
                checked={value.single_correct === option.id}
                onChange={() => onChange({ ...value, single_correct: option.id })}
              />
            ) : value.kind === 'multiple' ? (
              <Checkbox
                aria-label={t('quiz.editor.markCorrect', { option: label })}
                checked={value.multiple_correct.includes(option.id)}
                onChange={(event) =>
                  onChange({
                    ...value,
                    multiple_correct: event.currentTarget.checked
                      ? [...value.multiple_correct, option.id]
                      : value.multiple_correct.filter((id) => id !== option.id),
                  })
                }
              />
            ) : (
              <Text fw={700} ff="monospace" w={24} ta="end" aria-hidden>
                {index + 1}.
              </Text>
            )}
            <TextInput
              aria-label={label}
              placeholder={label}
              value={option.text}
              onChange={(event) => {
                const text = event.currentTarget.value;
                setOptions(
                  options.map((candidate) =>
                    candidate.id === option.id ? { ...candidate, text } : candidate,
                  ),
                );
              }}
              style={{ flex: 1 }}
              maxLength={2000}
            />
            <ActionIcon
              variant="default"
              aria-label={t('quiz.editor.moveOptionUp', { option: label })}
              disabled={index === 0}
              onClick={() => setOptions(moveItem(options, index, -1))}
            >
              <IconArrowUp size={16} aria-hidden />
            </ActionIcon>
            <ActionIcon
              variant="default"
              aria-label={t('quiz.editor.moveOptionDown', { option: label })}
              disabled={index === options.length - 1}
              onClick={() => setOptions(moveItem(options, index, 1))}
            >
              <IconArrowDown size={16} aria-hidden />
            </ActionIcon>
            <ActionIcon
              variant="default"
              aria-label={t('quiz.editor.deleteOption', { option: label })}
              disabled={options.length <= 2}
              onClick={() => setOptions(options.filter((candidate) => candidate.id !== option.id))}
            >
              <IconTrash size={16} aria-hidden />
            </ActionIcon>
          </Group>
        );
      })}
      <Group>
        <Button
          size="compact-sm"
          variant="subtle"
          leftSection={<IconPlus size={14} aria-hidden />}
          disabled={options.length >= MAX_OPTIONS}
          onClick={() => setOptions([...options, { id: nextOptionId(options), text: '' }])}
        >
          {ordering ? t('quiz.editor.addItem') : t('quiz.editor.addOption')}
        </Button>
      </Group>
    </Stack>
  );
}
