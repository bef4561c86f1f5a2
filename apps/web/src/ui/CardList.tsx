import { Card, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/** One fact of a card: a small label over its value. */
export interface CardFact {
  label: string;
  value: ReactNode;
}

/**
 * A list as cards, for phones: each item a card with its heading (a link, badges), its facts two to a
 * row, and its actions. A list of articles, so a screen reader still hears where each item begins.
 */
export function CardList({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap="sm" component="ul" aria-label={label} style={{ listStyle: 'none', padding: 0, margin: 0 }}>
      {children}
    </Stack>
  );
}

export function CardItem({
  heading,
  facts,
  actions,
}: {
  heading: ReactNode;
  facts: CardFact[];
  actions?: ReactNode;
}) {
  return (
    <li>
      <Card withBorder padding="sm" radius="md" component="article">
        <Stack gap="xs">
          {heading}
          <SimpleGrid cols={2} spacing="xs" verticalSpacing={6}>
            {facts.map((fact) => (
              <div key={fact.label} style={{ minWidth: 0 }}>
                <Text size="xs" c="dimmed">
                  {fact.label}
                </Text>
                <div style={{ overflowWrap: 'anywhere' }}>{fact.value}</div>
              </div>
            ))}
          </SimpleGrid>
          {actions ? (
            <Group gap="xs" wrap="wrap">
              {actions}
            </Group>
          ) : null}
        </Stack>
      </Card>
    </li>
  );
}
