import type { ReactNode } from 'react';
import { NotFoundPage } from '../../ui/NotFoundPage.tsx';
import { useCanUsePyGrade } from './pygrade-access.ts';

/** Students (and anyone who edits no course) get NotFound, as for any page they may not see. */
export function PyGradeGuard({ children }: { children: ReactNode }) {
  return useCanUsePyGrade() ? children : <NotFoundPage />;
}
