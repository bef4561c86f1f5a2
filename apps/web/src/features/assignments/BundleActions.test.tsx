import { fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../i18n/index.ts';
import { editorAssignment } from '../../test/assignment.ts';
import { json, stubFetch } from '../../test/fetch.ts';
import { renderApp } from '../../test/render.tsx';
import { signInAsStudent } from '../../test/session.ts';
import { ExportBundleButton, ImportBundleButton } from './BundleActions.tsx';

/**
 * The files the page saved, by the name of the link it clicked. The DOM is watched rather than the
 * download module mocked: the web project shares modules between files (isolate: false), so a module
 * another file loaded first would not be the mock.
 */
function watchDownloads(): { saved: string[]; sizes: number[]; restore: () => void } {
  const saved: string[] = [];
  const sizes: number[] = [];
  const original = { create: URL.createObjectURL, revoke: URL.revokeObjectURL };
  URL.createObjectURL = (blob: Blob | MediaSource) => {
    // Node's Blob, from fetch's Response, is not jsdom's: `instanceof Blob` would say no.
    sizes.push('size' in blob ? blob.size : -1);
    return 'blob:bundle';
  };
  URL.revokeObjectURL = () => undefined;
  const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
    this: HTMLAnchorElement,
  ) {
    saved.push(this.download);
  });
  return {
    saved,
    sizes,
    restore: () => {
      URL.createObjectURL = original.create;
      URL.revokeObjectURL = original.revoke;
      click.mockRestore();
    },
  };
}

const ASSIGNMENT = editorAssignment({
  id: 42,
  title: 'Sum of two numbers',
  max_files: 5,
  created_by: 4,
  created_at: '2030-01-01T00:00:00.000Z',
  updated_at: '2030-01-01T00:00:00.000Z',
  courses: [],
});

function renderImport() {
  return renderApp('/course/1/assignment', [
    { path: '/course/:course_id/assignment', element: <ImportBundleButton courseId={1} /> },
    { path: '/course/:course_id/assignment/:assignment_id', element: <p>The new assignment</p> },
  ]);
}

function chooseZip() {
  const input = screen.getByLabelText('Import an assignment from a .zip bundle');
  const file = new File([new Uint8Array([0x50, 0x4b, 0x05, 0x06])], 'My bundle (1).zip', {
    type: 'application/zip',
  });
  fireEvent.change(input, { target: { files: [file] } });
}

beforeEach(async () => {
  signInAsStudent();
  await i18n.changeLanguage('en-US');
});

describe('assignment bundles', () => {
  it('exports: downloads the zip with the session token and saves it under the server’s name', async () => {
    const { requests } = stubFetch(
      () =>
        new Response(new Uint8Array([1, 2, 3]), {
          status: 200,
          headers: {
            'Content-Type': 'application/zip',
            'Content-Disposition': `attachment; filename="sum.zip"; filename*=UTF-8''sum.zip`,
          },
        }),
    );
    renderApp('/', [{ path: '/', element: <ExportBundleButton assignmentId={42} courseId={1} /> }]);
    const downloads = watchDownloads();
    try {
      fireEvent.click(await screen.findByRole('button', { name: 'Export' }));
      await waitFor(() => expect(downloads.saved).toEqual(['sum.zip']));
      expect(downloads.sizes).toEqual([3]);
    } finally {
      downloads.restore();
    }
    expect(requests[0]).toMatchObject({ method: 'GET', url: '/api/Assignment/42/1/export/' });
    expect(requests[0]!.headers.authorization).toMatch(/^Bearer /);
  });

  it('imports: sends the chosen zip and opens the new assignment', async () => {
    const { fetchMock } = stubFetch(() => json(201, ASSIGNMENT));
    renderImport();
    chooseZip();
    expect(await screen.findByText('The new assignment')).toBeTruthy();
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(String(url)).toBe('/api/Assignment/import/1/');
    expect(init?.method).toBe('POST');
    const body = init?.body;
    if (!(body instanceof FormData)) throw new Error('The import was not sent as multipart/form-data.');
    const sent = body.get('file');
    if (!(sent instanceof File)) throw new Error('The import sent no file.');
    expect(sent.name).toBe('bundle.zip');
  });

  it('shows the server’s detail when the bundle is refused, and stays on the list', async () => {
    stubFetch(() =>
      json(400, {
        code: 'invalid_bundle',
        detail: 'tests/01-adds/test.json: points: Too big: expected number to be <=1000',
      }),
    );
    renderImport();
    chooseZip();
    expect(await screen.findByText('The bundle could not be imported')).toBeTruthy();
    expect(
      screen.getByText('tests/01-adds/test.json: points: Too big: expected number to be <=1000'),
    ).toBeTruthy();
    expect(screen.queryByText('The new assignment')).toBeNull();
  });
});
