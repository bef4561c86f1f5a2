import { Alert, List } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useFormatters } from '../../i18n/format.ts';
import type { FileProblem } from '../assignments/file-limits.ts';

/** Why the chosen files cannot be sent, one line per problem. */
export function FileProblemList({ problems }: { problems: FileProblem[] }) {
  const { t } = useTranslation();
  const format = useFormatters();
  if (problems.length === 0) return null;
  const describe = (problem: FileProblem): string => {
    switch (problem.kind) {
      case 'badName':
        return t('submissions.problems.badName', { name: problem.filename });
      case 'extension':
        return t('submissions.problems.extension', {
          name: problem.filename,
          extensions: problem.allowed.join(', '),
        });
      case 'tooLarge':
        return t('submissions.problems.tooLarge', {
          name: problem.filename,
          size: format.bytes(problem.size),
          max: format.bytes(problem.max),
        });
      case 'reserved':
        return t('submissions.problems.reserved', { name: problem.filename });
      case 'duplicate':
        return t('submissions.problems.duplicate', { name: problem.filename });
      case 'tooMany':
        return t('submissions.problems.tooMany', { count: problem.count, max: problem.max });
      case 'missing':
        return t('submissions.problems.missing', { name: problem.filename });
      case 'empty':
        return t('submissions.problems.empty');
    }
  };
  return (
    <Alert
      color="red"
      icon={<IconAlertTriangle aria-hidden />}
      title={t('submissions.problems.title')}
      role="alert"
    >
      <List size="sm" spacing={2}>
        {problems.map((problem, index) => (
          <List.Item key={`${problem.kind}-${index}`}>{describe(problem)}</List.Item>
        ))}
      </List>
    </Alert>
  );
}
