import { Button, FileButton, Group, Radio, Stack, Text } from '@mantine/core';
import { IconUpload } from '@tabler/icons-react';
import { MAX_NOTEBOOK_BYTES, type Notebook } from '@kadai/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormatters } from '../../i18n/format.ts';
import { starterFromIpynb } from './ipynb-starter.ts';

export type StarterChoice = 'keep' | 'empty' | 'file';
export interface StarterFile {
  name: string;
  notebook: Notebook;
}

/** Reads a picked `.ipynb` as a starter; a message when it is too big or not a notebook. */
async function readStarter(file: File): Promise<StarterFile | 'tooLarge' | 'invalid'> {
  if (file.size > MAX_NOTEBOOK_BYTES) return 'tooLarge';
  try {
    const notebook = starterFromIpynb(JSON.parse(await file.text()));
    return notebook ? { name: file.name, notebook } : 'invalid';
  } catch {
    return 'invalid';
  }
}

/** The notebook a student starts from: the current one (when editing), an empty one, or an uploaded file. */
export function StarterField({
  choice,
  onChoice,
  file,
  onFile,
  currentCells,
  error,
}: {
  choice: StarterChoice;
  onChoice: (choice: StarterChoice) => void;
  file: StarterFile | null;
  onFile: (file: StarterFile | null) => void;
  /** Cells of the saved starter; null for a new configuration. */
  currentCells: number | null;
  error: string | null;
}) {
  const { t } = useTranslation();
  const format = useFormatters();
  const [problem, setProblem] = useState<string | null>(null);

  const pick = async (picked: File | null) => {
    if (!picked) return;
    const read = await readStarter(picked);
    if (read === 'tooLarge') {
      setProblem(t('workbook.upload.tooLarge', { size: format.bytes(MAX_NOTEBOOK_BYTES) }));
      onFile(null);
    } else if (read === 'invalid') {
      setProblem(t('workbook.upload.notNotebook'));
      onFile(null);
    } else {
      setProblem(null);
      onFile(read);
      onChoice('file');
    }
  };

  const message = problem ?? error;
  return (
    <Radio.Group
      label={t('workbook.editor.starter')}
      description={t('workbook.editor.starterHint')}
      value={choice}
      onChange={(value) => onChoice(value === 'keep' || value === 'file' ? value : 'empty')}
    >
      <Stack gap="xs" mt="xs">
        {currentCells !== null ? (
          <Radio value="keep" label={t('workbook.editor.starterKeep', { count: currentCells })} />
        ) : null}
        <Radio value="empty" label={t('workbook.editor.starterEmpty')} />
        <Radio value="file" label={t('workbook.editor.starterFile')} />
        <Group gap="sm" pl="xl">
          <FileButton
            onChange={(picked) => void pick(picked)}
            accept=".ipynb,application/x-ipynb+json,application/json"
          >
            {(props) => (
              <Button
                {...props}
                size="xs"
                variant="default"
                leftSection={<IconUpload size={14} aria-hidden />}
              >
                {t('workbook.editor.chooseFile')}
              </Button>
            )}
          </FileButton>
          {file ? (
            <Text size="sm">
              {t('workbook.editor.starterLoaded', { name: file.name, count: file.notebook.cells.length })}
            </Text>
          ) : null}
        </Group>
        {message ? (
          <Text size="sm" c="red" role="alert">
            {message}
          </Text>
        ) : null}
      </Stack>
    </Radio.Group>
  );
}
