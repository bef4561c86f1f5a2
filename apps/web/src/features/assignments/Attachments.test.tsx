import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { AssignmentFile } from '@kadai/contracts';
import { beforeEach, describe, expect, it } from 'vitest';
import { assignmentCourse, editorAssignment } from '../../test/assignment.ts';
import { json, stubFetch, type RecordedRequest } from '../../test/fetch.ts';
import { renderApp } from '../../test/render.tsx';
import { signInAsStudent } from '../../test/session.ts';
import { AttachmentList } from './AttachmentList.tsx';
import { AttachmentsField } from './AttachmentsField.tsx';

/** Attachments are named in any script (docs/storage.md, "Names and limits of uploads"): shown as given. */

beforeEach(() => {
  signInAsStudent();
});

const attachment = (id: number, filename: string): AssignmentFile => ({
  id,
  filename,
  url: `/api/Download/token-${id}`,
  size: 2048,
  content_type: 'application/octet-stream',
  created_at: '2026-05-01T00:00:00.000Z',
});
const FILES = [attachment(1, '資料.pdf'), attachment(2, '第1回 課題.py')];

const DATES = assignmentCourse(1, {
  opens_at: '2026-05-01T00:00:00.000Z',
  due_at: '2099-05-01T00:00:00.000Z',
});
const DETAIL = {
  assignment: editorAssignment({
    id: 5,
    created_at: DATES.opens_at,
    updated_at: DATES.opens_at,
    courses: [DATES],
  }),
  course: DATES,
  accepts_submissions: true,
  is_late_period: false,
  files: FILES,
  can_edit: true,
};

describe('assignment attachments', () => {
  it('lists names in any script as given, and downloads them under that name', async () => {
    renderApp('/', [{ path: '/', element: <AttachmentList files={FILES} /> }]);
    for (const file of FILES) {
      const link = await screen.findByRole('link', { name: file.filename });
      expect(link.getAttribute('download')).toBe(file.filename);
      expect(link.getAttribute('href')).toBe(file.url);
    }
  });

  it('the editor’s field shows them and sends a chosen file of such a name', async () => {
    const uploads: RecordedRequest[] = [];
    stubFetch((request) => {
      const path = new URL(request.url, 'http://test').pathname;
      if (path === '/api/Assignment/5/CourseSpecificDetail/') return json(200, DETAIL);
      if (path === '/api/Assignment/5/1/FileUpload/' && request.method === 'POST') {
        uploads.push(request);
        return json(201, [attachment(3, 'レポート (1).txt')]);
      }
      return json(404, { detail: 'Not found.', code: 'not_found' });
    });
    const { container } = renderApp('/', [
      { path: '/', element: <AttachmentsField assignmentId={5} courseId={1} /> },
    ]);
    expect(await screen.findByRole('link', { name: '資料.pdf' })).toBeTruthy();
    expect(screen.getByRole('link', { name: '第1回 課題.py' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Delete 第1回 課題.py' })).toBeTruthy();

    const input = container.querySelector('input[type="file"]')!;
    fireEvent.change(input, { target: { files: [new File(['x'], 'レポート (1).txt')] } });
    await waitFor(() => expect(uploads).toHaveLength(1));
    expect(within(container).queryByRole('alert')).toBeNull();
  });
});
