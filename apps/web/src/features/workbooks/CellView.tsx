import { ActionIcon, Group, Text, Textarea, Tooltip, VisuallyHidden } from '@mantine/core';
import {
  IconArrowDown,
  IconArrowUp,
  IconCode,
  IconEye,
  IconMarkdown,
  IconPencil,
  IconPlayerPlay,
  IconTrash,
} from '@tabler/icons-react';
import type { NotebookCell } from '@kadai/contracts';
import { memo, useState, type KeyboardEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { CodeEditor } from '../../ui/CodeEditor.tsx';
import { Markdown } from '../../ui/Markdown.tsx';
import { CellOutputs } from './CellOutputs.tsx';
import type { CellType } from './notebook-state.ts';
import type { RunNote } from './run-note.ts';
import { RunNoteAlert, type KernelLimits } from './RunNoteAlert.tsx';
import classes from './Workbook.module.css';

/** What a cell can ask of the notebook; the same object for every cell (stable between renders). */
export interface CellHandlers {
  setSource: (id: string, source: string) => void;
  run: (id: string) => void;
  /** Shift+Enter: run a code cell (or leave a Markdown cell's editing) and go on to the next cell. */
  runAndAdvance: (id: string) => void;
  move: (id: string, delta: -1 | 1) => void;
  remove: (id: string) => void;
  changeType: (id: string, type: CellType) => void;
  activate: (id: string) => void;
  restart: () => void;
}

interface CellViewProps {
  cell: NotebookCell;
  /** 1-based, as people count cells. */
  number: number;
  isFirst: boolean;
  isLast: boolean;
  active: boolean;
  queued: boolean;
  canRun: boolean;
  note: RunNote | undefined;
  limits: KernelLimits;
  hintId: string;
  handlers: CellHandlers;
}

/** Enter with Shift runs and moves on, with Ctrl or ⌘ runs in place; never during an IME conversion. */
function runKey(event: KeyboardEvent): 'advance' | 'run' | null {
  if (event.key !== 'Enter' || event.nativeEvent.isComposing) return null;
  if (event.shiftKey) return 'advance';
  if (event.ctrlKey || event.metaKey) return 'run';
  return null;
}

/** One cell: its prompt, its tools, its editor (or rendered Markdown), and its outputs. */
export const CellView = memo(function CellView(props: CellViewProps) {
  const { cell, number: n, handlers, active } = props;
  const { t } = useTranslation();
  const [editing, setEditing] = useState(cell.source === '');

  const onKeyDownCapture = (event: KeyboardEvent) => {
    const action = runKey(event);
    if (action === null) return;
    // Before CodeMirror sees it: Shift+Enter must not also insert a line break.
    event.preventDefault();
    event.stopPropagation();
    if (cell.cell_type === 'markdown') {
      setEditing(false);
      if (action === 'advance') handlers.runAndAdvance(cell.id);
    } else if (action === 'advance') {
      handlers.runAndAdvance(cell.id);
    } else {
      handlers.run(cell.id);
    }
  };

  const otherType: CellType = cell.cell_type === 'code' ? 'markdown' : 'code';
  return (
    <div
      className={classes.cell}
      data-cell-id={cell.id}
      data-active={active || undefined}
      onFocusCapture={() => handlers.activate(cell.id)}
      tabIndex={-1}
    >
      <Group gap="xs" wrap="nowrap" align="flex-start">
        <Prompt cell={cell} queued={props.queued} />
        <div className={classes.body}>
          <Group justify="space-between" gap={4} wrap="nowrap" mb={4}>
            <Text size="xs" c="dimmed">
              {t(cell.cell_type === 'code' ? 'workbook.cell.codeKind' : 'workbook.cell.markdownKind', { n })}
            </Text>
            <Group gap={2} wrap="nowrap">
              {cell.cell_type === 'code' ? (
                <Tool
                  label={t('workbook.cell.run', { n })}
                  onClick={() => handlers.run(cell.id)}
                  disabled={!props.canRun}
                  loading={props.queued}
                  color="blue"
                >
                  <IconPlayerPlay size={16} aria-hidden />
                </Tool>
              ) : (
                <Tool
                  label={editing ? t('workbook.cell.render', { n }) : t('workbook.cell.edit', { n })}
                  onClick={() => setEditing(!editing)}
                >
                  {editing ? <IconEye size={16} aria-hidden /> : <IconPencil size={16} aria-hidden />}
                </Tool>
              )}
              <Tool
                label={t('workbook.cell.moveUp', { n })}
                onClick={() => handlers.move(cell.id, -1)}
                disabled={props.isFirst}
              >
                <IconArrowUp size={16} aria-hidden />
              </Tool>
              <Tool
                label={t('workbook.cell.moveDown', { n })}
                onClick={() => handlers.move(cell.id, 1)}
                disabled={props.isLast}
              >
                <IconArrowDown size={16} aria-hidden />
              </Tool>
              <Tool
                label={t(otherType === 'code' ? 'workbook.cell.toCode' : 'workbook.cell.toMarkdown', { n })}
                onClick={() => handlers.changeType(cell.id, otherType)}
              >
                {otherType === 'code' ? (
                  <IconCode size={16} aria-hidden />
                ) : (
                  <IconMarkdown size={16} aria-hidden />
                )}
              </Tool>
              <Tool
                label={t('workbook.cell.delete', { n })}
                onClick={() => handlers.remove(cell.id)}
                color="red"
              >
                <IconTrash size={16} aria-hidden />
              </Tool>
            </Group>
          </Group>
          <div data-cell-input onKeyDownCapture={onKeyDownCapture}>
            {cell.cell_type === 'code' ? (
              <CodeEditor
                value={cell.source}
                onChange={(source) => handlers.setSource(cell.id, source)}
                label={t('workbook.cell.codeLabel', { n })}
                describedBy={props.hintId}
                minHeight={36}
                maxHeight={640}
              />
            ) : editing ? (
              <Textarea
                aria-label={t('workbook.cell.markdownLabel', { n })}
                aria-describedby={props.hintId}
                autosize
                minRows={2}
                maxRows={24}
                value={cell.source}
                onChange={(event) => handlers.setSource(cell.id, event.currentTarget.value)}
                styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
              />
            ) : (
              <div className={classes.preview} data-cell-preview onDoubleClick={() => setEditing(true)}>
                {cell.source.trim() ? (
                  <Markdown source={cell.source} />
                ) : (
                  <Text size="sm" c="dimmed">
                    {t('workbook.cell.emptyMarkdown')}
                  </Text>
                )}
              </div>
            )}
          </div>
          {cell.cell_type === 'code' ? <CellOutputs outputs={cell.outputs} cellNumber={n} /> : null}
          {props.note ? (
            <RunNoteAlert
              note={props.note}
              limits={props.limits}
              canRestart={props.canRun}
              onRestart={handlers.restart}
            />
          ) : null}
        </div>
      </Group>
    </div>
  );
});

/** `[3]` after a run, `[*]` while waiting or running, `[ ]` before: Jupyter's prompt. */
function Prompt({ cell, queued }: { cell: NotebookCell; queued: boolean }) {
  const { t } = useTranslation();
  if (cell.cell_type !== 'code') return <div className={classes.prompt} aria-hidden />;
  const count = cell.execution_count;
  const shown = queued ? '[*]' : `[${count ?? ' '}]`;
  const spoken = queued
    ? t('workbook.cell.running')
    : count === null
      ? t('workbook.cell.notRun')
      : t('workbook.cell.ranAs', { execution: count });
  return (
    <div className={classes.prompt} data-testid="cell-prompt">
      <span aria-hidden>{shown}</span>
      <VisuallyHidden>{spoken}</VisuallyHidden>
    </div>
  );
}

function Tool({
  label,
  onClick,
  disabled,
  loading,
  color = 'gray',
  children,
}: {
  label: string;
  onClick: () => void;
  disabled?: boolean;
  loading?: boolean;
  color?: string;
  children: ReactNode;
}) {
  return (
    <Tooltip label={label} withinPortal={false} openDelay={400}>
      <ActionIcon
        variant="subtle"
        color={color}
        aria-label={label}
        onClick={onClick}
        disabled={disabled}
        loading={loading}
      >
        {children}
      </ActionIcon>
    </Tooltip>
  );
}
