import { Button, FileButton, Group } from '@mantine/core';
import {
  IconCode,
  IconDownload,
  IconMarkdown,
  IconPlayerPause,
  IconPlayerPlay,
  IconPlayerStop,
  IconRefresh,
  IconUpload,
} from '@tabler/icons-react';
import { useRef, type ComponentProps, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { CellType } from './notebook-state.ts';

/** Tests set a file on the hidden input by this id. */
export const IPYNB_INPUT_TEST_ID = 'ipynb-input';
const IPYNB_INPUT_PROPS: ComponentProps<'input'> & { 'data-testid': string } = {
  'data-testid': IPYNB_INPUT_TEST_ID,
};

/** The notebook's commands, each a labelled button (the words are the accessible names). */
export function NotebookToolbar({
  live,
  canRunAll,
  canAdd,
  onRunAll,
  onAdd,
  canInterrupt,
  onInterrupt,
  interrupting,
  onRestart,
  onDownload,
  downloading,
  onUpload,
  uploading,
  onEnd,
  ending,
  status,
}: {
  live: boolean;
  canRunAll: boolean;
  canAdd: boolean;
  onRunAll: () => void;
  onAdd: (type: CellType) => void;
  /** Enabled while a cell runs. */
  canInterrupt: boolean;
  onInterrupt: () => void;
  interrupting: boolean;
  onRestart: () => void;
  onDownload: () => void;
  downloading: boolean;
  onUpload: (file: File) => void;
  uploading: boolean;
  onEnd: () => void;
  ending: boolean;
  status: ReactNode;
}) {
  const { t } = useTranslation();
  const resetUpload = useRef<() => void>(null);
  const common = { size: 'xs', variant: 'default' } as const;
  const interruptOff = !live || !canInterrupt || interrupting;
  return (
    <Group justify="space-between" gap="xs" wrap="wrap">
      <Group gap={6} wrap="wrap" role="group" aria-label={t('workbook.toolbar.label')}>
        <Button
          size="xs"
          leftSection={<IconPlayerPlay size={14} aria-hidden />}
          onClick={onRunAll}
          disabled={!live || !canRunAll}
        >
          {t('workbook.toolbar.runAll')}
        </Button>
        <Button
          {...common}
          leftSection={<IconCode size={14} aria-hidden />}
          onClick={() => onAdd('code')}
          disabled={!canAdd}
        >
          {t('workbook.toolbar.addCode')}
        </Button>
        <Button
          {...common}
          leftSection={<IconMarkdown size={14} aria-hidden />}
          onClick={() => onAdd('markdown')}
          disabled={!canAdd}
        >
          {t('workbook.toolbar.addMarkdown')}
        </Button>
        {/* Off through data-disabled, not disabled: the button keeps keyboard focus when the cell it
            stopped ends and it turns off (a disabled button would drop focus to the page). */}
        <Button
          {...common}
          leftSection={<IconPlayerPause size={14} aria-hidden />}
          data-disabled={interruptOff || undefined}
          aria-disabled={interruptOff}
          aria-busy={interrupting}
          onClick={(event) => {
            if (interruptOff) event.preventDefault();
            else onInterrupt();
          }}
        >
          {t('workbook.kernel.interrupt')}
        </Button>
        <Button
          {...common}
          leftSection={<IconRefresh size={14} aria-hidden />}
          onClick={onRestart}
          disabled={!live}
        >
          {t('workbook.kernel.restart')}
        </Button>
        <Button
          {...common}
          leftSection={<IconDownload size={14} aria-hidden />}
          onClick={onDownload}
          loading={downloading}
        >
          {t('workbook.toolbar.download')}
        </Button>
        <FileButton
          onChange={(file) => {
            resetUpload.current?.();
            if (file) onUpload(file);
          }}
          resetRef={resetUpload}
          accept=".ipynb,application/x-ipynb+json,application/json"
          inputProps={IPYNB_INPUT_PROPS}
        >
          {(props) => (
            <Button
              {...props}
              {...common}
              leftSection={<IconUpload size={14} aria-hidden />}
              loading={uploading}
            >
              {t('workbook.toolbar.upload')}
            </Button>
          )}
        </FileButton>
        <Button
          {...common}
          color="red"
          leftSection={<IconPlayerStop size={14} aria-hidden />}
          onClick={onEnd}
          disabled={!live}
          loading={ending}
        >
          {t('workbook.session.end')}
        </Button>
      </Group>
      {status}
    </Group>
  );
}
