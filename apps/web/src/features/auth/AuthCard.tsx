import { Center, Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** The card of the signed-out pages (login, register, set password, verify e-mail): a heading, then the form. */
export function AuthCard({
  title,
  subtitle,
  width,
  children,
}: {
  title: ReactNode;
  subtitle?: ReactNode;
  width: number;
  children: ReactNode;
}) {
  const heading = (
    <Title order={1} size="h2">
      {title}
    </Title>
  );
  return (
    <Center mih="calc(100dvh - 56px - 2 * var(--mantine-spacing-md))">
      <Paper withBorder shadow="sm" p="xl" radius="md" w="100%" maw={width}>
        <Stack gap="md">
          {subtitle === undefined ? (
            heading
          ) : (
            <div>
              {heading}
              <Text c="dimmed" size="sm" mt={4}>
                {subtitle}
              </Text>
            </div>
          )}
          {children}
        </Stack>
      </Paper>
    </Center>
  );
}
