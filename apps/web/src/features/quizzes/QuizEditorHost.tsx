import { Suspense } from 'react';
import { useSearchParams } from 'react-router';
import { parseId } from '../assignments/assignments.queries.ts';
import { lazyComponent } from '../../ui/lazyComponent.ts';

// Loaded when it opens: the page it opens over does not download the editor.
const QuizEditorModal = lazyComponent(() =>
  import('./QuizEditorModal.tsx').then((m) => ({ default: m.QuizEditorModal })),
);

const PARAM = 'edit';

/**
 * The quiz editor opens over the page that asked for it (`?edit=new` or `?edit=<quiz id>`), so the list
 * and the quiz page share it and a reload keeps it open.
 */
export function useQuizEditor() {
  const [searchParams, setSearchParams] = useSearchParams();
  const value = searchParams.get(PARAM);
  const set = (next: string | null) =>
    setSearchParams((previous) => {
      const params = new URLSearchParams(previous);
      if (next === null) params.delete(PARAM);
      else params.set(PARAM, next);
      return params;
    });
  return {
    target: value === 'new' ? ('new' as const) : parseId(value ?? undefined),
    openNew: () => set('new'),
    openEdit: (id: number) => set(String(id)),
    close: () => set(null),
  };
}

export function QuizEditorHost({
  courseId,
  timeZone,
  onDeleted,
}: {
  courseId: number;
  /** The course's time zone (`useCourse().time_zone`). */
  timeZone: string;
  onDeleted?: () => void;
}) {
  const editor = useQuizEditor();
  if (editor.target === null) return null;
  return (
    <Suspense fallback={null}>
      <QuizEditorModal
        key={String(editor.target)}
        courseId={courseId}
        timeZone={timeZone}
        quizId={editor.target === 'new' ? null : editor.target}
        onClose={editor.close}
        onDeleted={() => {
          editor.close();
          onDeleted?.();
        }}
      />
    </Suspense>
  );
}
