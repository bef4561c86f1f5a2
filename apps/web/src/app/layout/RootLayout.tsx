import { AppShell, getDefaultZIndex } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useMatch } from 'react-router';
import { courseQuery, parseCourseId } from '../../features/courses/courses.queries.ts';
import { useIsAuthenticated, useSession } from '../../features/auth/session.ts';
import { PageLoader } from '../../ui/PageLoader.tsx';
import { Header } from './Header.tsx';
import { SideRail } from './SideRail.tsx';
import {
  RAIL_BREAKPOINT_PX,
  RAIL_EXPANDED_WIDTH,
  RAIL_MINI_WIDTH,
  RAIL_WIDE_MIN_PX,
} from './side-rail-entries.ts';
import { useDocumentTitle } from './useDocumentTitle.ts';
import classes from './RootLayout.module.css';

export const MAIN_CONTENT_ID = 'main-content';
const HEADER_HEIGHT = 56;
// Above the side rail (Mantine puts the navbar one above the header): on a phone the open course menu
// covers the page under the header, and the header's language and account menus must open over it.
const HEADER_Z_INDEX = getDefaultZIndex('app') + 2;

/** The app shell: header on every page, the side rail inside a course, the page in <main>. */
export function RootLayout() {
  const { t } = useTranslation();
  useDocumentTitle();
  const isAuthenticated = useIsAuthenticated();
  const isStaff = useSession((s) => s.is_staff);
  const courseMatch = useMatch('/course/:course_id/*');
  const courseId = parseCourseId(courseMatch?.params.course_id);
  const course = useQuery({ ...courseQuery(courseId ?? 0), enabled: isAuthenticated && courseId !== null });

  const isWide = useMediaQuery(`(min-width: ${RAIL_WIDE_MIN_PX}px)`, false, {
    getInitialValueInEffect: false,
  });
  const isNarrow = useMediaQuery(`(max-width: ${RAIL_BREAKPOINT_PX - 0.02}px)`, false, {
    getInitialValueInEffect: false,
  });
  const [burgerOpened, burger] = useDisclosure(false);
  const [hovered, setHovered] = useState(false);

  const showRail = isAuthenticated && course.data !== undefined;
  const mini = !isWide && !isNarrow;
  const expanded = mini && hovered;

  return (
    <AppShell
      header={{ height: HEADER_HEIGHT }}
      navbar={
        showRail
          ? {
              width: isWide ? RAIL_EXPANDED_WIDTH : RAIL_MINI_WIDTH,
              breakpoint: RAIL_BREAKPOINT_PX,
              collapsed: { mobile: !burgerOpened },
            }
          : undefined
      }
      padding="md"
    >
      <a href={`#${MAIN_CONTENT_ID}`} className={classes.skipLink}>
        {t('common.skipToContent')}
      </a>
      <AppShell.Header zIndex={HEADER_Z_INDEX}>
        <Header burger={showRail ? { opened: burgerOpened, toggle: burger.toggle } : undefined} />
      </AppShell.Header>
      {showRail ? (
        <AppShell.Navbar
          aria-label={t('rail.label')}
          className={classes.navbar}
          data-expanded={expanded || undefined}
          style={expanded ? { width: RAIL_EXPANDED_WIDTH } : undefined}
          onMouseEnter={() => setHovered(true)}
          onMouseLeave={() => setHovered(false)}
          onFocus={() => setHovered(true)}
          onBlur={(event) => {
            if (!event.currentTarget.contains(event.relatedTarget)) setHovered(false);
          }}
        >
          <SideRail
            course={course.data}
            isStaff={isStaff}
            mini={mini && !expanded}
            onNavigate={burger.close}
          />
        </AppShell.Navbar>
      ) : null}
      <AppShell.Main id={MAIN_CONTENT_ID} tabIndex={-1} className={classes.main}>
        <Suspense fallback={<PageLoader />}>
          <Outlet />
        </Suspense>
      </AppShell.Main>
    </AppShell>
  );
}
