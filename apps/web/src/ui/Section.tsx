import { Group, Paper, Title } from '@mantine/core';
import { useId, type ReactNode } from 'react';

/** A titled part of a page: a bordered region named by its h2 (or `order`) heading. */
export function Section({
  title,
  actions,
  children,
  order = 2,
}: {
  title: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
  order?: 2 | 3 | 4 | 5;
}) {
  const id = useId();
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby={id}>
      <Group justify="space-between" align="center" mb="sm" gap="xs">
        <Title order={order} size="h4" id={id}>
          {title}
        </Title>
        {actions}
      </Group>
      {children}
    </Paper>
  );
}
