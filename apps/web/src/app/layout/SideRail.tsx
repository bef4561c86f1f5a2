import { NavLink, ScrollArea, Tooltip } from '@mantine/core';
import {
  IconBook2,
  IconCalendar,
  IconChartBar,
  IconClipboardList,
  IconFileUpload,
  IconListCheck,
  IconMessages,
  IconMovie,
  IconSettings,
  type Icon,
} from '@tabler/icons-react';
import type { Course } from '@kadai/contracts';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { pathTo, type RouteName } from '../route-table.ts';
import { visibleRailEntries } from './side-rail-entries.ts';
import classes from './SideRail.module.css';

const ICONS: Partial<Record<RouteName, Icon>> = {
  Workbook: IconBook2,
  Video: IconMovie,
  Calendar: IconCalendar,
  Assignment: IconClipboardList,
  QuizList: IconListCheck,
  Submission: IconFileUpload,
  Forum: IconMessages,
  Assessment: IconChartBar,
  Settings: IconSettings,
};

export interface SideRailProps {
  course: Pick<Course, 'id' | 'has_videos' | 'has_assessment'>;
  isStaff: boolean;
  /** Icons only; each entry then carries a tooltip and its name for screen readers. */
  mini: boolean;
  onNavigate?: () => void;
}

export function SideRail({ course, isStaff, mini, onNavigate }: SideRailProps) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  return (
    <ScrollArea className={classes.scroll} type="never">
      <ul className={classes.list}>
        {visibleRailEntries(course, isStaff).map((entry) => {
          const to = pathTo(entry.route, { course_id: course.id });
          const active = pathname === to || pathname.startsWith(`${to}/`);
          const label = t(entry.labelKey);
          const EntryIcon = ICONS[entry.route] ?? IconClipboardList;
          const link = (
            <NavLink
              component={Link}
              to={to}
              onClick={onNavigate}
              active={active}
              aria-current={active ? 'page' : undefined}
              aria-label={mini ? label : undefined}
              label={mini ? null : label}
              leftSection={<EntryIcon size={22} stroke={1.6} aria-hidden />}
              className={classes.link}
              data-mini={mini || undefined}
              noWrap
            />
          );
          // The link stays the same element when the rail expands under the pointer (hover or a tap on
          // a tablet): remounting it between mousedown and mouseup would swallow the click.
          return (
            <li key={entry.route}>
              <Tooltip label={label} position="right" withArrow disabled={!mini}>
                {link}
              </Tooltip>
            </li>
          );
        })}
      </ul>
    </ScrollArea>
  );
}
