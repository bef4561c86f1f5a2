import { Button } from '@mantine/core';
import { IconClipboardCheck, IconListCheck } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { pathTo } from '../../routes/route-table.ts';

/** The assignment page's ways into the teacher's review, for editors: grading and the rubric. */
export function ReviewEntryButtons({ courseId, assignmentId }: { courseId: number; assignmentId: number }) {
  const { t } = useTranslation();
  const params = { course_id: courseId, assignment_id: assignmentId };
  return (
    <>
      <Button
        variant="default"
        component={Link}
        to={pathTo('Grading', params)}
        leftSection={<IconClipboardCheck size={16} aria-hidden />}
      >
        {t('grading.entry.grade')}
      </Button>
      <Button
        variant="default"
        component={Link}
        to={pathTo('Rubric', params)}
        leftSection={<IconListCheck size={16} aria-hidden />}
      >
        {t('grading.entry.rubric')}
      </Button>
    </>
  );
}
