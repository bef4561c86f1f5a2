import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { SESSION_DEFAULTS, useSession } from '../features/auth/session.ts';
import { json, stubFetch, tokenExpiringIn } from '../test/fetch.ts';
import { renderApp } from '../test/render.tsx';

// Pages load their code on demand: the first render of a file takes a while in jsdom.
vi.setConfig({ testTimeout: 20_000 });
const SLOW = { timeout: 15_000 };

beforeEach(() => {
  useSession.setState({ ...SESSION_DEFAULTS, displayLang: 'en-US' });
});

describe('route guard', () => {
  it('sends a signed-out visitor of a guarded route to /login and remembers the route', async () => {
    stubFetch(() =>
      json(200, { product_name: 'Kadai', google_client_id: null, provider_url: 'https://example.com/' }),
    );
    const { router } = renderApp('/course/3/forum?tab=all');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'), SLOW);
    await waitFor(() => expect(useSession.getState().callback).toBe('/course/3/forum?tab=all'));
    expect(await screen.findByRole('button', { name: 'Sign In' }, SLOW)).toBeTruthy();
  });

  it('guards NotFound too, as the spec says', async () => {
    stubFetch(() =>
      json(200, { product_name: 'Kadai', google_client_id: null, provider_url: 'https://example.com/' }),
    );
    const { router } = renderApp('/no/such/page');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'), SLOW);
  });

  it('lets public routes through', async () => {
    stubFetch(() =>
      json(200, { product_name: 'Kadai', google_client_id: null, provider_url: 'https://example.com/' }),
    );
    const { router } = renderApp('/privacy-policy');
    expect(await screen.findByRole('heading', { level: 1, name: 'Privacy policy' }, SLOW)).toBeTruthy();
    expect(router.state.location.pathname).toBe('/privacy-policy');
    await waitFor(() => expect(document.title).toBe('Privacy policy · Kadai'));
  });

  it('shows NotFound with its button for an unknown path when signed in', async () => {
    useSession.setState({ authToken: tokenExpiringIn(7200), refreshToken: 'r', userId: 1 });
    stubFetch(() =>
      json(200, { product_name: 'Kadai', google_client_id: null, provider_url: 'https://example.com/' }),
    );
    renderApp('/no/such/page');
    expect(await screen.findByText('Sorry, but the requested page does not exist.', {}, SLOW)).toBeTruthy();
    const back = screen.getByRole('link', { name: 'Get Back To Home' });
    expect(back.getAttribute('href')).toBe('/course');
  });

  it('redirects Home to the course list', async () => {
    useSession.setState({ authToken: tokenExpiringIn(7200), refreshToken: 'r', userId: 1 });
    stubFetch((request) =>
      request.url.startsWith('/api/Course/')
        ? json(200, { count: 0, limit: 12, offset: 0, results: [] })
        : json(200, { product_name: 'Kadai', google_client_id: null, provider_url: 'https://example.com/' }),
    );
    const { router } = renderApp('/');
    await waitFor(() => expect(router.state.location.pathname).toBe('/course'), SLOW);
    expect(await screen.findByRole('heading', { level: 1, name: 'Courses' }, SLOW)).toBeTruthy();
  });
});
