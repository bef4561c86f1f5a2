import type { UserInfo } from '@kadai/contracts';
import { beforeEach, describe, expect, it } from 'vitest';
import { SESSION_DEFAULTS, SESSION_STORAGE_KEY, useSession } from './session.ts';

const INFO: UserInfo = {
  id: 5,
  email: 'editor@example.com',
  first_name: 'Ken',
  last_name: 'Sato',
  roles: ['instructor'],
  is_staff: false,
  editor_courses: [3, 9],
  student_courses: [1],
  display_lang: 'en-US',
};

beforeEach(() => {
  useSession.setState(SESSION_DEFAULTS);
});

describe('auth session', () => {
  it('starts with the defaults of spec §3', () => {
    expect(SESSION_DEFAULTS).toEqual({
      authToken: null,
      refreshToken: null,
      emailAddress: null,
      userId: null,
      is_staff: false,
      roles: ['no_role'],
      editorCourses: [],
      isDarkMode: false,
      displayLang: 'ja',
      forumActiveTab: 'announcement',
      callback: null,
    });
  });

  it('stores tokens, e-mail and user id at login, and the user info after it', () => {
    const session = useSession.getState();
    session.login({ access: 'a', refresh: 'r' }, 'editor@example.com', 5);
    expect(useSession.getState()).toMatchObject({ authToken: 'a', refreshToken: 'r', userId: 5 });
    session.applyUserInfo(INFO);
    expect(useSession.getState()).toMatchObject({
      roles: ['instructor'],
      is_staff: false,
      editorCourses: [3, 9],
    });
    expect(useSession.getState().isEditor(9)).toBe(true);
    expect(useSession.getState().isEditor(1)).toBe(false);
  });

  it('keeps no_role when the user info lists no role', () => {
    useSession.getState().applyUserInfo({ ...INFO, roles: [] });
    expect(useSession.getState().roles).toEqual(['no_role']);
  });

  it('reset clears identity, tokens, roles, editor courses and staff, and keeps preferences', () => {
    const session = useSession.getState();
    session.login({ access: 'a', refresh: 'r' }, 'staff@example.com', 1);
    session.applyUserInfo({ ...INFO, is_staff: true });
    session.setDarkMode(true);
    session.setDisplayLang('en-US');
    session.setForumActiveTab('all');
    session.reset();
    expect(useSession.getState()).toMatchObject({
      authToken: null,
      refreshToken: null,
      emailAddress: null,
      userId: null,
      is_staff: false,
      roles: ['no_role'],
      editorCourses: [],
      isDarkMode: true,
      displayLang: 'en-US',
      forumActiveTab: 'all',
    });
  });

  it('persists every field in localStorage', () => {
    useSession.getState().login({ access: 'a', refresh: 'r' }, 'x@example.com', 2);
    useSession.getState().setDarkMode(true);
    const stored: { state: Record<string, unknown> } = JSON.parse(
      localStorage.getItem(SESSION_STORAGE_KEY) ?? '{}',
    );
    expect(stored.state).toMatchObject({
      authToken: 'a',
      refreshToken: 'r',
      emailAddress: 'x@example.com',
      userId: 2,
      isDarkMode: true,
    });
    expect(Object.keys(stored.state).sort()).toEqual(Object.keys(SESSION_DEFAULTS).sort());
  });
});
