import { Suspense } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { pathTo } from '../../routes/route-table.ts';
import { parseId } from './assignments.queries.ts';
import { lazyComponent } from '../../ui/lazyComponent.ts';

// Loaded when it opens: the page it opens over does not download the editor.
const AssignmentEditorModal = lazyComponent(() =>
  import('./AssignmentEditorModal.tsx').then((m) => ({ default: m.AssignmentEditorModal })),
);

const PARAM = 'edit';

/**
 * The assignment editor opens over the page that asked for it (`?edit=new` or `?edit=<id>`), so the
 * list, the detail page and the test-case page share it and a reload keeps it open.
 */
export function useAssignmentEditor() {
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

export function AssignmentEditorHost({
  courseId,
  timeZone,
  onDeleted,
}: {
  courseId: number;
  /** The course's time zone (`useCourse().time_zone`): a new assignment is due at 23:59 there. */
  timeZone: string;
  /** Where to go once the assignment is deleted (the detail page leaves for the list). */
  onDeleted?: () => void;
}) {
  const editor = useAssignmentEditor();
  const navigate = useNavigate();
  if (editor.target === null) return null;
  return (
    <Suspense fallback={null}>
      <AssignmentEditorModal
        key={String(editor.target)}
        courseId={courseId}
        timeZone={timeZone}
        assignmentId={editor.target === 'new' ? null : editor.target}
        onClose={editor.close}
        // A new assignment's dialog ends on the assignment itself, its tests written in the dialog.
        onCreated={(id) => navigate(pathTo('AssignmentDetail', { course_id: courseId, assignment_id: id }))}
        onDeleted={() => {
          editor.close();
          onDeleted?.();
        }}
      />
    </Suspense>
  );
}
