import { Stack } from '@mantine/core';
import { useSearchParams } from 'react-router';
import { useCourse } from '../courses/useCourse.ts';
import { parseId } from '../assignments/assignments.queries.ts';
import { ConfigList } from './ConfigList.tsx';
import { SessionPage } from './SessionPage.tsx';

/**
 * Workbook: Python notebooks with a kernel on the server. Without a session the course's configurations
 * are listed to open one; with one (`?session=ID`, so a reload resumes it) the notebook is shown.
 */
export function WorkbookPage() {
  const course = useCourse();
  const [params, setParams] = useSearchParams();
  const workbookId = parseId(params.get('session') ?? undefined);
  const openSession = (id: number) => setParams({ session: String(id) });
  const leave = () => setParams({});

  return (
    <Stack gap="lg">
      {workbookId === null ? (
        <ConfigList courseId={course.id} onOpen={openSession} />
      ) : (
        <SessionPage courseId={course.id} workbookId={workbookId} onOpen={openSession} onLeave={leave} />
      )}
    </Stack>
  );
}
