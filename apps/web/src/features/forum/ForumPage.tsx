import { Badge, Button, Group, Select, Stack, Switch, Tabs, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconPlus, IconSearch } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { MAX_FORUM_SEARCH } from '@kadai/contracts';
import { Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useCourse } from '../courses/useCourse.ts';
import { useFormatters } from '../../i18n/format.ts';
import { canEditCourse } from '../assignments/permissions.ts';
import { useSession } from '../auth/session.ts';
import { forumUnreadQuery } from './forum.queries.ts';
import {
  DEFAULT_FILTERS,
  FORUM_TABS,
  LIST_ORDERINGS,
  forumListParams,
  isListOrdering,
  resolveForumTab,
  type ForumFilters,
  type ForumTab,
} from './forum-tabs.ts';
import { ForumPostList } from './ForumPostList.tsx';
import { lazyComponent } from '../../ui/lazyComponent.ts';

// Loaded when it opens: the page it opens over does not download the editor.
const PostEditorModal = lazyComponent(() =>
  import('./PostEditorModal.tsx').then((m) => ({ default: m.PostEditorModal })),
);

const SEARCH_DEBOUNCE_MS = 300;

/**
 * The course forum: announcements (the default tab), discussions, unread topics and, for editors and
 * staff, announcements waiting for their time. The tab is remembered on this device (forumActiveTab)
 * and shown in the address (`?tab=`), so a link opens the same tab.
 */
export function ForumPage() {
  const { t } = useTranslation();
  const format = useFormatters();
  const course = useCourse();
  const canManage = canEditCourse(course);
  const userId = useSession((s) => s.userId);
  const remembered = useSession((s) => s.forumActiveTab);
  const setRemembered = useSession((s) => s.setForumActiveTab);
  const [searchParams, setSearchParams] = useSearchParams();
  const tab = resolveForumTab(searchParams.get('tab'), remembered, canManage);
  const [filters, setFilters] = useState<ForumFilters>(DEFAULT_FILTERS);
  // What the box shows; `filters.search` (what is searched) skips the kana of an unfinished Japanese
  // IME conversion, so typing 内包 does not first search for ないほう.
  const [searchInput, setSearchInput] = useState('');
  const [search] = useDebouncedValue(filters.search.trim(), SEARCH_DEBOUNCE_MS);
  const [editorOpen, setEditorOpen] = useState(false);
  const unread = useQuery(forumUnreadQuery(course.id));

  const selectTab = (value: string | null) => {
    const next = resolveForumTab(value, remembered, canManage);
    setRemembered(next);
    setSearchParams(
      (previous) => {
        const params = new URLSearchParams(previous);
        params.set('tab', next);
        return params;
      },
      { replace: true },
    );
  };

  const change = (patch: Partial<ForumFilters>) => setFilters((previous) => ({ ...previous, ...patch }));
  const params = forumListParams(course.id, tab, { ...filters, search }, userId);
  const filtered = search !== '' || filters.pinnedOnly || (filters.mine && tab !== 'scheduled');
  const tabs: readonly ForumTab[] = FORUM_TABS.filter((name) => name !== 'scheduled' || canManage);

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end">
        <Title order={1}>{t('routes.forum')}</Title>
        <Button leftSection={<IconPlus size={18} aria-hidden />} onClick={() => setEditorOpen(true)}>
          {t('forum.newPost')}
        </Button>
      </Group>

      <Tabs value={tab} onChange={selectTab} keepMounted={false}>
        <Tabs.List>
          {tabs.map((name) => (
            <Tabs.Tab
              key={name}
              value={name}
              rightSection={
                name === 'unread' && unread.data !== undefined && unread.data > 0 ? (
                  <Badge size="sm" circle={unread.data < 10} aria-hidden>
                    {format.number(unread.data)}
                  </Badge>
                ) : null
              }
              aria-label={
                name === 'unread' && unread.data !== undefined
                  ? t('forum.tabs.unreadWithCount', { count: unread.data })
                  : undefined
              }
            >
              {t(`forum.tabs.${name}`)}
            </Tabs.Tab>
          ))}
        </Tabs.List>

        <Group gap="md" align="flex-end" role="search" mt="md" wrap="wrap">
          <TextInput
            label={t('forum.search')}
            leftSection={<IconSearch size={16} aria-hidden />}
            type="search"
            maxLength={MAX_FORUM_SEARCH}
            value={searchInput}
            onChange={(event) => {
              const { value } = event.currentTarget;
              setSearchInput(value);
              const composing = event.nativeEvent instanceof InputEvent && event.nativeEvent.isComposing;
              if (!composing) change({ search: value });
            }}
            onCompositionEnd={(event) => change({ search: event.currentTarget.value })}
            style={{ flex: 1, minWidth: 200 }}
          />
          <Select
            label={t('forum.ordering.label')}
            data={LIST_ORDERINGS.map((value) => ({ value, label: t(`forum.ordering.${value}`) }))}
            value={filters.ordering}
            onChange={(value) => {
              if (isListOrdering(value)) change({ ordering: value });
            }}
            allowDeselect={false}
            comboboxProps={{ withinPortal: false }}
            w={200}
          />
        </Group>
        <Group gap="lg" mt="sm">
          <Switch
            label={t('forum.filters.pinnedOnly')}
            checked={filters.pinnedOnly}
            onChange={(event) => change({ pinnedOnly: event.currentTarget.checked })}
          />
          {tab !== 'scheduled' ? (
            <Switch
              label={t('forum.filters.mine')}
              checked={filters.mine}
              onChange={(event) => change({ mine: event.currentTarget.checked })}
            />
          ) : null}
        </Group>

        {tabs.map((name) => (
          <Tabs.Panel key={name} value={name}>
            <ForumPostList params={params} tab={name} filtered={filtered} />
          </Tabs.Panel>
        ))}
      </Tabs>

      {editorOpen ? (
        <Suspense fallback={null}>
          <PostEditorModal
            courseId={course.id}
            target={{ kind: 'topic', record: null }}
            canManage={canManage}
            startAsAnnouncement={canManage && (tab === 'announcement' || tab === 'scheduled')}
            onClose={() => setEditorOpen(false)}
          />
        </Suspense>
      ) : null}
    </Stack>
  );
}
