import { Anchor, Badge, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { OVERVIEW_COUNT_CAP } from '@kadai/contracts';
import { useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import classes from './CourseHome.module.css';

/**
 * One card of the course home: a region named by its heading, how many items there are (the count
 * is capped: "50+"), the first few as a list, what an empty section means, and a link to the page
 * that holds them all.
 */
export function HomeSection({
  title,
  count,
  empty,
  more,
  children,
}: {
  title: string;
  count: number;
  empty: string;
  more: { to: string; label: string };
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const id = useId();
  const countText = count >= OVERVIEW_COUNT_CAP ? t('courseHome.countCapped', { count }) : String(count);
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby={id} className={classes.section}>
      <Stack gap="sm">
        <Group justify="space-between" align="center" gap="xs" wrap="nowrap">
          <Title order={2} size="h4" id={id} className={classes.wrap}>
            {title}
          </Title>
          {count > 0 ? (
            <Badge variant="light" size="lg" style={{ flexShrink: 0 }}>
              {countText}
            </Badge>
          ) : null}
        </Group>
        {count === 0 ? (
          <Text size="sm" c="dimmed">
            {empty}
          </Text>
        ) : (
          <ul className={classes.list}>{children}</ul>
        )}
        <Anchor component={Link} to={more.to} size="sm" className={classes.wrap}>
          {more.label}
        </Anchor>
      </Stack>
    </Paper>
  );
}

/** One item of a section: a link to its page, badges, and a line or two about it. */
export function HomeItem({
  to,
  title,
  badges,
  children,
}: {
  to: string;
  title: string;
  badges?: ReactNode;
  children?: ReactNode;
}) {
  return (
    <li className={classes.item}>
      <Stack gap={4}>
        <Anchor component={Link} to={to} fw={600} className={classes.wrap}>
          {title}
        </Anchor>
        {badges ? (
          <Group gap={6} wrap="wrap">
            {badges}
          </Group>
        ) : null}
        {children ? (
          <Text size="sm" c="dimmed" className={classes.wrap} component="div">
            {children}
          </Text>
        ) : null}
      </Stack>
    </li>
  );
}
