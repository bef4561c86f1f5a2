import { Badge } from '@mantine/core';
import type { CourseRole } from '@kadai/contracts';
import { useTranslation } from 'react-i18next';

const COLORS: Record<CourseRole, string> = { staff: 'red', editor: 'blue', student: 'teal' };

export function RoleBadge({ role }: { role: CourseRole }) {
  const { t } = useTranslation();
  return (
    <Badge variant="light" color={COLORS[role]} style={{ flexShrink: 0 }}>
      {t(`courses.myRole.${role}`)}
    </Badge>
  );
}
