import type { Notebook, WorkbookNotebook } from '@kadai/contracts';
import { useCallback, useEffect, useRef, useState } from 'react';
import { isApiError } from '../../api/client.ts';
import { saveNotebook } from './workbooks.api.ts';

/** Quiet time after the last change before it is saved. */
export const AUTOSAVE_DELAY_MS = 1500;

export type SaveStatus = 'saved' | 'unsaved' | 'saving' | 'failed' | 'stale';

interface Doc {
  notebook: Notebook;
  /** Counts local changes; the save of revision n makes n the saved one. */
  revision: number;
}

/**
 * The notebook being edited, and its autosave. Changes are saved after a quiet moment (or at once
 * when asked, after a run), one save at a time, each naming the version it changes: a 409 means it was
 * saved elsewhere since, and then nothing more is saved until the person reloads — never overwritten.
 * The latest document is kept in a ref as well as in state, so a save or a run started right after a
 * change sends that change.
 */
export function useNotebookDocument(initial: WorkbookNotebook, onSaved: (saved: WorkbookNotebook) => void) {
  const notebookId = initial.id;
  const [doc, setDoc] = useState<Doc>(() => ({ notebook: initial.notebook, revision: 0 }));
  const latest = useRef(doc);
  const version = useRef(initial.version);
  const savedRevisionRef = useRef(0);
  const [savedRevision, setSavedRevision] = useState(0);
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<unknown>(null);
  const [stale, setStale] = useState(false);
  const staleRef = useRef(false);
  const paused = useRef(false);
  const inFlight = useRef<Promise<void> | null>(null);
  const again = useRef(false);
  const immediate = useRef(false);
  const onSavedRef = useRef(onSaved);
  useEffect(() => {
    onSavedRef.current = onSaved;
  });

  const save = useCallback((): Promise<void> => {
    if (inFlight.current) {
      again.current = true;
      return inFlight.current;
    }
    const run = (async () => {
      do {
        again.current = false;
        const { notebook, revision } = latest.current;
        if (staleRef.current || paused.current || revision === savedRevisionRef.current) return;
        setSaving(true);
        try {
          const saved = await saveNotebook(notebookId, { version: version.current, notebook });
          version.current = saved.version;
          savedRevisionRef.current = revision;
          setSavedRevision(revision);
          setFailure(null);
          onSavedRef.current(saved);
        } catch (error) {
          if (isApiError(error, 409) && error.body.code === 'stale_notebook') {
            staleRef.current = true;
            setStale(true);
          } else {
            setFailure(error);
          }
          return;
        } finally {
          setSaving(false);
        }
      } while (again.current);
    })().finally(() => {
      inFlight.current = null;
    });
    inFlight.current = run;
    return run;
  }, [notebookId]);

  /** Applies a change; `saveNow` saves it without waiting for the quiet moment (after a run). */
  const update = useCallback((change: (notebook: Notebook) => Notebook, options?: { saveNow?: boolean }) => {
    const notebook = change(latest.current.notebook);
    if (notebook === latest.current.notebook) return;
    if (options?.saveNow) immediate.current = true;
    latest.current = { notebook, revision: latest.current.revision + 1 };
    setDoc(latest.current);
  }, []);

  /** The server's notebook in place of the local one (an upload, or a reload after a conflict). */
  const replace = useCallback((saved: WorkbookNotebook) => {
    latest.current = { notebook: saved.notebook, revision: latest.current.revision + 1 };
    version.current = saved.version;
    savedRevisionRef.current = latest.current.revision;
    staleRef.current = false;
    setDoc(latest.current);
    setSavedRevision(latest.current.revision);
    setStale(false);
    setFailure(null);
    onSavedRef.current(saved);
  }, []);

  /** Runs `work` with autosave held back and no save in flight (an upload replaces the notebook). */
  const whileHeld = useCallback(
    async <T>(work: () => Promise<T>): Promise<T> => {
      paused.current = true;
      try {
        await inFlight.current;
        return await work();
      } finally {
        paused.current = false;
        // If the work failed, local changes are still there to save.
        void save();
      }
    },
    [save],
  );

  useEffect(() => {
    if (doc.revision === savedRevisionRef.current) return undefined;
    const delay = immediate.current ? 0 : AUTOSAVE_DELAY_MS;
    immediate.current = false;
    const timer = window.setTimeout(() => void save(), delay);
    return () => window.clearTimeout(timer);
  }, [doc.revision, save]);

  // Leaving the page saves what is still unsaved.
  useEffect(() => () => void save(), [save]);

  const dirty = doc.revision !== savedRevision || saving;
  useEffect(() => {
    if (!dirty) return undefined;
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older browsers show their prompt only when returnValue is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  const status: SaveStatus = stale
    ? 'stale'
    : saving
      ? 'saving'
      : failure !== null
        ? 'failed'
        : doc.revision !== savedRevision
          ? 'unsaved'
          : 'saved';

  const latestNotebook = useCallback(() => latest.current.notebook, []);

  return { notebook: doc.notebook, status, failure, update, replace, save, whileHeld, latestNotebook };
}

export type NotebookDocument = ReturnType<typeof useNotebookDocument>;
