import { Badge } from '@mantine/core';
import type { ReviewStatus } from '@kadai/contracts';
import { useTranslation } from 'react-i18next';

const COLOR: Record<ReviewStatus, string> = { none: 'gray', draft: 'yellow', graded: 'green' };

export function ReviewStatusBadge({ status }: { status: ReviewStatus }) {
  const { t } = useTranslation();
  return (
    <Badge variant="light" color={COLOR[status]}>
      {t(`grading.status.${status}`)}
    </Badge>
  );
}
