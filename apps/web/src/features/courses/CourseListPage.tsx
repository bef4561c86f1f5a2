import {
  Badge,
  Button,
  Card,
  EmptyState,
  Group,
  Select,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDebouncedValue, useDisclosure } from '@mantine/hooks';
import { IconPlus, IconSchool, IconSearch, IconUsers } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { COURSE_ORDERINGS, type Course, type CourseOrdering } from '@kadai/contracts';
import { useDeferredValue, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { coursePath } from '../../routes/route-table.ts';
import { ErrorState } from '../../ui/ErrorState.tsx';
import { useSession } from '../auth/session.ts';
import { CreateCourseDialog } from './CreateCourseDialog.tsx';
import { courseListQuery } from './courses.queries.ts';
import { RoleBadge } from './RoleBadge.tsx';
import classes from './CourseListPage.module.css';
import { Pager } from '../../ui/Pager.tsx';

export const COURSES_PER_PAGE = 12;
const SEARCH_DEBOUNCE_MS = 300;

function parseOrdering(value: string | null): CourseOrdering {
  return COURSE_ORDERINGS.find((ordering) => ordering === value) ?? 'title';
}

function parsePage(value: string | null): number {
  const page = Number(value);
  return Number.isInteger(page) && page >= 1 ? page : 1;
}

export function CourseListPage() {
  const { t } = useTranslation();
  const isStaff = useSession((s) => s.is_staff);
  const [createOpened, create] = useDisclosure(false);
  // Page, ordering and search live in the URL so back/forward and shared links keep them.
  const [searchParams, setSearchParams] = useSearchParams();
  const page = parsePage(searchParams.get('page'));
  const ordering = parseOrdering(searchParams.get('ordering'));
  const urlSearch = searchParams.get('search') ?? '';
  const [search, setSearch] = useState(urlSearch);
  // The URL can change without the box (the Course tab, back and forward): the box follows it.
  const [lastUrlSearch, setLastUrlSearch] = useState(urlSearch);
  if (urlSearch !== lastUrlSearch) {
    setLastUrlSearch(urlSearch);
    if (urlSearch !== search.trim()) setSearch(urlSearch);
  }
  const [debouncedSearch] = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);

  const updateParams = (changes: Record<string, string | null>) =>
    setSearchParams(
      (previous) => {
        const next = new URLSearchParams(previous);
        for (const [key, value] of Object.entries(changes)) {
          if (value === null || value === '') next.delete(key);
          else next.set(key, value);
        }
        return next;
      },
      { replace: true },
    );

  const params = {
    limit: COURSES_PER_PAGE,
    offset: (page - 1) * COURSES_PER_PAGE,
    ordering,
    search: debouncedSearch || undefined,
  };
  const courses = useQuery(courseListQuery(params));
  // Drawn in a background render cut into slices, not in the store's blocking task (docs/first-load.md).
  const shown = useDeferredValue(courses.data);
  const totalPages = courses.data ? Math.max(1, Math.ceil(courses.data.count / COURSES_PER_PAGE)) : 1;
  // A page past the end (an old link, or courses deleted meanwhile) shows the last page instead.
  const isPastTheEnd = courses.data !== undefined && !courses.isPlaceholderData && page > totalPages;
  useEffect(() => {
    if (isPastTheEnd) updateParams({ page: totalPages > 1 ? String(totalPages) : null });
  });

  const orderingOptions = COURSE_ORDERINGS.map((value) => ({ value, label: t(`courses.ordering.${value}`) }));

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end">
        <Title order={1}>{t('routes.course')}</Title>
        {isStaff ? (
          <Button leftSection={<IconPlus size={18} aria-hidden />} onClick={create.open}>
            {t('courses.create.open')}
          </Button>
        ) : null}
      </Group>

      <Group gap="sm" align="flex-end" role="search">
        <TextInput
          label={t('courses.search')}
          placeholder={t('courses.searchPlaceholder')}
          leftSection={<IconSearch size={16} aria-hidden />}
          value={search}
          onChange={(event) => {
            setSearch(event.currentTarget.value);
            updateParams({ search: event.currentTarget.value.trim(), page: null });
          }}
          type="search"
          style={{ flex: 1, minWidth: 200 }}
        />
        <Select
          label={t('courses.orderBy')}
          data={orderingOptions}
          value={ordering}
          onChange={(value) => updateParams({ ordering: parseOrdering(value), page: null })}
          allowDeselect={false}
          w={220}
        />
      </Group>

      {courses.isError ? (
        <ErrorState error={courses.error} onRetry={() => void courses.refetch()} />
      ) : !shown ? (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} aria-busy="true">
          {Array.from({ length: 6 }, (_, i) => (
            <Skeleton key={i} height={150} radius="md" />
          ))}
        </SimpleGrid>
      ) : shown.results.length === 0 ? (
        <EmptyState
          icon={<IconSchool size={32} aria-hidden />}
          withIndicatorBackground
          title={debouncedSearch ? t('courses.empty.noMatchTitle') : t('courses.empty.title')}
          description={
            debouncedSearch
              ? t('courses.empty.noMatch', { search: debouncedSearch })
              : isStaff
                ? t('courses.empty.staff')
                : t('courses.empty.member')
          }
          py="xl"
        />
      ) : (
        <>
          <Text size="sm" c="dimmed" aria-live="polite">
            {t('courses.count', { count: shown.count })}
          </Text>
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} component="ul" className={classes.grid}>
            {shown.results.map((course) => (
              <li key={course.id}>
                <CourseCard course={course} />
              </li>
            ))}
          </SimpleGrid>
          <Pager
            total={totalPages}
            value={page}
            onChange={(value) => updateParams({ page: value === 1 ? null : String(value) })}
          />
        </>
      )}

      <CreateCourseDialog opened={createOpened} onClose={create.close} />
    </Stack>
  );
}

function CourseCard({ course }: { course: Course }) {
  const { t } = useTranslation();
  return (
    <Card withBorder radius="md" padding="lg" className={classes.card}>
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
        <Title order={2} size="h4" className={classes.title}>
          <Link to={coursePath(course.id)} className={classes.link}>
            {course.title}
          </Link>
        </Title>
        <RoleBadge role={course.my_role} />
      </Group>
      <Text size="sm" c="dimmed" lineClamp={3} mt="xs" className={classes.description}>
        {course.description || t('courses.noDescription')}
      </Text>
      <Group gap="xs" mt="md">
        <Badge variant="light" color="gray" leftSection={<IconUsers size={12} aria-hidden />}>
          {t('courses.studentCount', { count: course.student_count })}
        </Badge>
        {course.has_videos ? (
          <Badge variant="light" color="grape">
            {t('courses.flags.videos')}
          </Badge>
        ) : null}
        {course.has_assessment ? (
          <Badge variant="light" color="orange">
            {t('courses.flags.assessment')}
          </Badge>
        ) : null}
      </Group>
    </Card>
  );
}
