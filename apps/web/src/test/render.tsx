import { act, render } from '@testing-library/react';
import { useLayoutEffect } from 'react';
import {
  MemoryRouter,
  useLocation,
  useNavigate,
  useNavigationType,
  type Location,
  type NavigationType,
  type RouteObject,
  type To,
} from 'react-router';
import { Providers } from '../app/App.tsx';
import { createQueryClient } from '../app/query-client.ts';
import { AppRoutes, appRoutes } from '../app/router.tsx';

/** Where a test's app is, and a way to send it elsewhere (as react-router's data routers offer). */
export interface TestRouter {
  readonly state: { readonly location: Location; readonly historyAction: NavigationType };
  navigate: (to: To) => Promise<void>;
}

interface Seen {
  location: Location;
  historyAction: NavigationType;
  navigate: (to: To) => void;
}

/** Tells the test what the router last rendered, for `TestRouter`. */
function Observer({ onRender }: { onRender: (seen: Seen) => void }) {
  const location = useLocation();
  const historyAction = useNavigationType();
  const navigate = useNavigate();
  useLayoutEffect(() => {
    onRender({ location, historyAction, navigate: (to) => void navigate(to) });
  });
  return null;
}

/** The whole app (or `routes`) at `path`, in memory, with fresh server state. */
export function renderApp(path: string, routes: RouteObject[] = appRoutes) {
  let seen: Seen | undefined;
  const router: TestRouter = {
    get state() {
      return { location: seen!.location, historyAction: seen!.historyAction };
    },
    navigate: async (to) => {
      await act(async () => seen!.navigate(to));
    },
  };
  const queryClient = createQueryClient();
  const view = render(
    <Providers queryClient={queryClient}>
      <MemoryRouter initialEntries={[path]}>
        <Observer
          onRender={(now) => {
            seen = now;
          }}
        />
        <AppRoutes routes={routes} />
      </MemoryRouter>
    </Providers>,
  );
  return { ...view, router, queryClient };
}
