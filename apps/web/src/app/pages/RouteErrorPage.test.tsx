import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Link } from 'react-router';
import ja from '../../i18n/ja.json';
import { renderApp } from '../../test/render.tsx';

function Broken(): never {
  throw new Error('a page that cannot draw');
}

const routes = [
  { path: '/broken', element: <Broken /> },
  { path: '/fine', element: <Link to="/broken">to the broken page</Link> },
];

describe('a page that throws while drawing', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('shows the error page with a reload button, and the next address shows its page again', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { router } = renderApp('/broken', routes);
    expect(await screen.findByRole('heading', { name: ja.errors.unexpectedTitle })).toBeTruthy();
    expect(screen.getByRole('button', { name: ja.errors.reload })).toBeTruthy();
    expect(logged).toHaveBeenCalled();

    await router.navigate('/fine');
    expect(await screen.findByRole('link', { name: 'to the broken page' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: ja.errors.unexpectedTitle })).toBeNull();
  });
});
