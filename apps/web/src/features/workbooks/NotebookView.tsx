import { Alert, Button, Divider, Group, Paper, Stack, Text, VisuallyHidden } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import type { WorkbookNotebook, WorkbookSession } from '@kadai/contracts';
import { useCallback, useEffect, useId, useMemo, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../ui/errors.ts';
import { notifyError } from '../../ui/notify.ts';
import { CellView, type CellHandlers } from './CellView.tsx';
import { NotebookToolbar } from './NotebookToolbar.tsx';
import {
  applyExecution,
  canAddCell,
  cellIds,
  changeCellType,
  codeCellIds,
  deleteCell,
  findCodeCell,
  insertCellAfter,
  makeCell,
  moveCell,
  newCellId,
  nextCellId,
  setCellSource,
  type CellType,
} from './notebook-state.ts';
import { runNoteOf, type RunNote } from './run-note.ts';
import type { KernelLimits } from './RunNoteAlert.tsx';
import { SaveStatus } from './SaveStatus.tsx';
import { useCellFocus } from './useCellFocus.ts';
import { useCellRunner } from './useCellRunner.ts';
import { useNotebookDocument } from './useNotebookDocument.ts';
import { useNotebookFiles } from './useNotebookFiles.tsx';
import type { useSessionActions } from './useSessionActions.tsx';
import classes from './Workbook.module.css';
import { workbookKeys, myNotebookQuery } from './workbooks.queries.ts';

/** Notes belong to the session (the kernel) they were about; a new session starts without them. */
interface Notes {
  workbookId: number;
  byCell: ReadonlyMap<string, RunNote>;
}

/** The notebook of a session: the toolbar, the cells, autosave, and the runs through the kernel. */
export function NotebookView({
  initial,
  session,
  live,
  limits,
  header,
  actions,
  onLeave,
}: {
  initial: WorkbookNotebook;
  session: WorkbookSession;
  live: boolean;
  limits: KernelLimits;
  header: ReactNode;
  actions: ReturnType<typeof useSessionActions>;
  onLeave: () => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const root = useRef<HTMLOListElement>(null);
  const hintId = useId();
  const focusCell = useCellFocus(root);
  const workbookId = session.workbookId;
  const doc = useNotebookDocument(initial, (saved) =>
    queryClient.setQueryData(workbookKeys.notebook(saved.courseId, saved.configId), saved),
  );
  const { update, latestNotebook } = doc;
  const [active, setActive] = useState<string | null>(null);
  const [notes, setNotes] = useState<Notes>({ workbookId, byCell: new Map() });
  const [announcement, setAnnouncement] = useState('');
  const byCell = notes.workbookId === workbookId ? notes.byCell : new Map<string, RunNote>();
  const refreshSession = () => queryClient.invalidateQueries({ queryKey: workbookKeys.session(workbookId) });
  const numberOf = useCallback(
    (id: string) => latestNotebook().cells.findIndex((cell) => cell.id === id) + 1,
    [latestNotebook],
  );
  const clearNotes = () => setNotes({ workbookId, byCell: new Map() });

  const runner = useCellRunner(workbookId, {
    readSource: (id) => findCodeCell(latestNotebook(), id)?.source ?? null,
    onExecuted: (execution) => {
      update((notebook) => applyExecution(notebook, execution), { saveNow: true });
      const note = runNoteOf(execution);
      setNotes((previous) => {
        // A fresh kernel: what was said about the old one's runs no longer holds.
        const next = new Map(
          previous.workbookId === workbookId && !execution.kernel_restarted ? previous.byCell : [],
        );
        if (note) next.set(execution.cell_id, note);
        else next.delete(execution.cell_id);
        return { workbookId, byCell: next };
      });
      const n = numberOf(execution.cell_id);
      setAnnouncement(
        execution.status === 'ok'
          ? t('workbook.cell.ranAnnounce', { n })
          : execution.status === 'error'
            ? t('workbook.cell.errorAnnounce', { n })
            : t('workbook.kernel.deadTitle'),
      );
      if (execution.status === 'dead' || execution.kernel_restarted) void refreshSession();
    },
    onFailed: (error) => {
      notifyError(errorMessage(error, t));
      // The session may have ended or expired meanwhile.
      void refreshSession();
    },
  });
  const { enqueue, reset } = runner;

  const afterRestart = () => {
    reset();
    clearNotes();
  };
  /** The toolbar asks first: a restart loses the variables of a kernel that is still alive. */
  const restart = () => actions.confirmRestart(session, afterRestart);
  /** After the kernel died its variables are gone already: nothing to confirm. */
  const restartNow = () => actions.restart.mutate(session, { onSuccess: afterRestart });
  // Cells get one handler object for the life of the page; it reaches the latest restart through this.
  const restartRef = useRef(restartNow);
  useEffect(() => {
    restartRef.current = restartNow;
  });

  const handlers = useMemo<CellHandlers>(() => {
    const run = (id: string) => {
      if (live && findCodeCell(latestNotebook(), id)) enqueue([id]);
    };
    const removeNow = (id: string) => {
      const notebook = latestNotebook();
      const neighbour =
        nextCellId(notebook, id) ?? notebook.cells[notebook.cells.findIndex((c) => c.id === id) - 1]?.id;
      update((current) => deleteCell(current, id));
      if (neighbour) focusCell(neighbour);
    };
    return {
      setSource: (id, source) => update((notebook) => setCellSource(notebook, id, source)),
      run,
      runAndAdvance: (id) => {
        run(id);
        const notebook = latestNotebook();
        const next = nextCellId(notebook, id);
        if (next !== null) {
          focusCell(next);
        } else if (canAddCell(notebook)) {
          // As in Jupyter, running the last cell opens a new one below it.
          const fresh = newCellId(cellIds(notebook));
          update((current) => insertCellAfter(current, id, makeCell('code', fresh)));
          focusCell(fresh);
        }
      },
      move: (id, delta) => update((notebook) => moveCell(notebook, id, delta)),
      remove: (id) => {
        const cell = latestNotebook().cells.find((c) => c.id === id);
        if (!cell) return;
        const isBlank =
          cell.source.trim() === '' && (cell.cell_type === 'markdown' || cell.outputs.length === 0);
        if (isBlank) {
          removeNow(id);
          return;
        }
        modals.openConfirmModal({
          title: t('workbook.cell.deleteTitle', { n: numberOf(id) }),
          children: <Text size="sm">{t('common.confirmDelete')}</Text>,
          labels: { confirm: t('common.delete'), cancel: t('common.cancel') },
          confirmProps: { color: 'red' },
          onConfirm: () => removeNow(id),
        });
      },
      changeType: (id, type) => update((notebook) => changeCellType(notebook, id, type)),
      activate: setActive,
      restart: () => restartRef.current(),
    };
  }, [live, enqueue, update, latestNotebook, focusCell, numberOf, t]);

  const add = (type: CellType) => {
    const id = newCellId(cellIds(latestNotebook()));
    update((notebook) => insertCellAfter(notebook, active, makeCell(type, id)));
    setActive(id);
    focusCell(id);
  };

  const files = useNotebookFiles(initial, doc, () => {
    reset();
    clearNotes();
  });

  const reload = async () => {
    try {
      doc.replace(
        await queryClient.fetchQuery({
          ...myNotebookQuery(initial.courseId, initial.configId),
          staleTime: 0,
        }),
      );
    } catch (error) {
      notifyError(errorMessage(error, t));
    }
  };

  const cells = doc.notebook.cells;
  const hasDeadNote = [...byCell.values()].some((note) => note.kind === 'dead');
  return (
    <Stack gap="sm">
      <Paper withBorder radius="md" p="sm" shadow="xs" className={classes.header}>
        {header}
        <Divider my="xs" />
        <NotebookToolbar
          live={live}
          canRunAll={codeCellIds(doc.notebook).length > 0}
          canAdd={canAddCell(doc.notebook)}
          onRunAll={() => enqueue(codeCellIds(latestNotebook()))}
          onAdd={add}
          canInterrupt={runner.running !== null}
          onInterrupt={() => actions.interrupt.mutate(session)}
          interrupting={actions.interrupt.isPending}
          onRestart={restart}
          onDownload={() => void files.download()}
          downloading={files.downloading}
          onUpload={files.pickUpload}
          uploading={files.uploading}
          onEnd={() => actions.confirmEnd(session, onLeave)}
          ending={actions.end.isPending}
          status={<SaveStatus status={doc.status} failure={doc.failure} onRetry={() => void doc.save()} />}
        />
        <Text size="xs" c="dimmed" mt={4} id={hintId}>
          {t('workbook.toolbar.hint')}
        </Text>
      </Paper>

      {doc.status === 'stale' ? (
        <Alert
          color="red"
          role="alert"
          icon={<IconAlertTriangle aria-hidden />}
          title={t('workbook.save.staleTitle')}
        >
          <Text size="sm">{t('workbook.save.staleText')}</Text>
          <Group mt="xs">
            <Button size="xs" color="red" onClick={() => void reload()}>
              {t('workbook.save.reload')}
            </Button>
          </Group>
        </Alert>
      ) : null}
      {live && !session.kernel_alive && !hasDeadNote ? (
        <Alert color="orange" role="status" title={t('workbook.kernel.notRunningTitle')}>
          <Text size="sm">{t('workbook.kernel.notRunning')}</Text>
          <Group mt="xs">
            <Button
              size="xs"
              variant="outline"
              color="orange"
              onClick={restartNow}
              loading={actions.restart.isPending}
            >
              {t('workbook.kernel.restartNow')}
            </Button>
          </Group>
        </Alert>
      ) : null}

      {cells.length === 0 ? (
        <Text c="dimmed" ta="center" py="xl">
          {t('workbook.notebook.empty')}
        </Text>
      ) : null}
      <ol ref={root} className={classes.cells} aria-label={t('workbook.notebook.cells')}>
        {cells.map((cell, index) => (
          <li key={cell.id}>
            <CellView
              cell={cell}
              number={index + 1}
              isFirst={index === 0}
              isLast={index === cells.length - 1}
              active={cell.id === active}
              queued={runner.pending.includes(cell.id)}
              canRun={live}
              note={byCell.get(cell.id)}
              limits={limits}
              hintId={hintId}
              handlers={handlers}
            />
          </li>
        ))}
      </ol>
      <VisuallyHidden aria-live="polite">{announcement}</VisuallyHidden>
    </Stack>
  );
}
