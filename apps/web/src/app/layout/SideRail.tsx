import { Badge, Indicator, NavLink } from '@mantine/core';
import {
  IconBook2,
  IconHome,
  IconCalendar,
  IconChartBar,
  IconClipboardList,
  IconClockPlus,
  IconFileUpload,
  IconListCheck,
  IconMessage2Question,
  IconMessages,
  IconMovie,
  IconSettings,
  IconUsers,
  type Icon,
} from '@tabler/icons-react';
import type { Course } from '@kadai/contracts';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { canManageCourse } from '../../features/courses/course-access.ts';
import { useForumUnreadCount } from '../../features/forum/useForumUnreadCount.ts';
import { useOpenRegradeCount } from '../../features/review/useOpenRegradeCount.ts';
import { pathTo, type RouteName } from '../../routes/route-table.ts';
import { visibleRailEntries } from './side-rail-entries.ts';
import classes from './SideRail.module.css';

const ICONS: Partial<Record<RouteName, Icon>> = {
  CourseHome: IconHome,
  Workbook: IconBook2,
  Video: IconMovie,
  Calendar: IconCalendar,
  Assignment: IconClipboardList,
  QuizList: IconListCheck,
  Submission: IconFileUpload,
  Forum: IconMessages,
  Assessment: IconChartBar,
  Extensions: IconClockPlus,
  RegradeRequests: IconMessage2Question,
  Members: IconUsers,
  Settings: IconSettings,
};

type BadgeLabelKey = 'rail.forumUnread' | 'rail.regradesOpen';

export interface SideRailProps {
  course: Pick<Course, 'id' | 'has_videos' | 'has_assessment' | 'my_role'>;
  isStaff: boolean;
  /**
   * Icons only; each entry then carries its name for screen readers. (No tooltip: pointing at the rail
   * or moving the focus into it expands it, names and all, so a tooltip could never show.)
   */
  mini: boolean;
  onNavigate?: () => void;
}

export function SideRail({ course, isStaff, mini, onNavigate }: SideRailProps) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const unread = useForumUnreadCount(course.id);
  const openRegrades = useOpenRegradeCount(course.id, canManageCourse(course, isStaff));
  // The entries that carry a count: a badge, or a dot on the icon in the mini rail.
  const counts: Partial<Record<RouteName, { count: number | null; labelKey: BadgeLabelKey }>> = {
    Forum: { count: unread, labelKey: 'rail.forumUnread' },
    RegradeRequests: { count: openRegrades, labelKey: 'rail.regradesOpen' },
  };
  return (
    // A plain scrolling box with its scrollbar hidden (what Mantine's ScrollArea type="never" is), not
    // ScrollArea itself: it brings @floating-ui (about 40 KB) into the shell for merging two refs.
    <div className={classes.scroll}>
      <ul className={classes.list}>
        {visibleRailEntries(course, isStaff).map((entry) => {
          const to = pathTo(entry.route, { course_id: course.id });
          // Every page of the course lies under its home's path: the home is current on itself only.
          const active =
            pathname === to ||
            (entry.route === 'CourseHome' ? pathname === `${to}/` : pathname.startsWith(`${to}/`));
          const label = t(entry.labelKey);
          const EntryIcon = ICONS[entry.route] ?? IconClipboardList;
          const counted = counts[entry.route];
          const badge = counted?.count ? counted.count : null;
          const accessibleLabel =
            badge === null || !counted ? label : t(counted.labelKey, { label, count: badge });
          const icon = <EntryIcon size={22} stroke={1.6} aria-hidden />;
          const link = (
            <NavLink
              component={Link}
              to={to}
              onClick={onNavigate}
              active={active}
              aria-current={active ? 'page' : undefined}
              aria-label={mini || badge !== null ? accessibleLabel : undefined}
              label={mini ? null : label}
              leftSection={
                // Always the same element tree, whether the dot shows or not: hovering the mini rail expands
                // it, and a remounted icon between mousedown and mouseup would swallow the click.
                <Indicator size={9} offset={2} color="red" disabled={!(badge !== null && mini)} aria-hidden>
                  {icon}
                </Indicator>
              }
              rightSection={
                badge !== null && !mini ? (
                  <Badge size="sm" color="red" variant="filled" aria-hidden>
                    {badge > 99 ? '99+' : badge}
                  </Badge>
                ) : undefined
              }
              className={classes.link}
              data-mini={mini || undefined}
              noWrap
            />
          );
          // The link stays the same element when the rail expands under the pointer (hover or a tap on
          // a tablet): remounting it between mousedown and mouseup would swallow the click.
          return <li key={entry.route}>{link}</li>;
        })}
      </ul>
    </div>
  );
}
