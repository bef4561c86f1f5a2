import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import type { Language, Role, TokenPair, UserInfo } from '@kadai/contracts';
import { SESSION_STORAGE_KEY } from './stored-session.ts';

/** The auth session of spec §3, persisted in localStorage; field names as the spec writes them. */
export interface SessionState {
  authToken: string | null;
  refreshToken: string | null;
  emailAddress: string | null;
  userId: number | null;
  is_staff: boolean;
  roles: Role[];
  editorCourses: number[];
  isDarkMode: boolean;
  displayLang: Language;
  forumActiveTab: string;
  /** The route a signed-out user tried to open; sign-in returns there. */
  callback: string | null;
}

export interface SessionActions {
  /** E-mail login succeeded: tokens, e-mail and user id are known, the rest comes from post-login. */
  login: (tokens: TokenPair, emailAddress: string, userId: number) => void;
  setTokens: (tokens: TokenPair) => void;
  /** Post-login: what GET Auth/UserInfo/ says about the user. */
  applyUserInfo: (info: UserInfo) => void;
  /** Forget who is signed in; preferences (language, colour scheme, forum tab) stay on this device. */
  reset: () => void;
  isEditor: (courseId: number) => boolean;
  setDarkMode: (isDarkMode: boolean) => void;
  setDisplayLang: (displayLang: Language) => void;
  setForumActiveTab: (tab: string) => void;
  setCallback: (route: string | null) => void;
}

export type Session = SessionState & SessionActions;

export { SESSION_STORAGE_KEY };

export const SESSION_DEFAULTS: SessionState = {
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
};

const IDENTITY_DEFAULTS = {
  authToken: SESSION_DEFAULTS.authToken,
  refreshToken: SESSION_DEFAULTS.refreshToken,
  emailAddress: SESSION_DEFAULTS.emailAddress,
  userId: SESSION_DEFAULTS.userId,
  is_staff: SESSION_DEFAULTS.is_staff,
  roles: SESSION_DEFAULTS.roles,
  editorCourses: SESSION_DEFAULTS.editorCourses,
} satisfies Partial<SessionState>;

export const useSession = create<Session>()(
  persist(
    (set, get) => ({
      ...SESSION_DEFAULTS,
      login: (tokens, emailAddress, userId) =>
        set({ authToken: tokens.access, refreshToken: tokens.refresh, emailAddress, userId }),
      setTokens: (tokens) => set({ authToken: tokens.access, refreshToken: tokens.refresh }),
      applyUserInfo: (info) =>
        set({
          userId: info.id,
          emailAddress: info.email,
          roles: info.roles.length > 0 ? info.roles : SESSION_DEFAULTS.roles,
          is_staff: info.is_staff,
          editorCourses: info.editor_courses,
        }),
      reset: () => set(IDENTITY_DEFAULTS),
      isEditor: (courseId) => get().editorCourses.includes(courseId),
      setDarkMode: (isDarkMode) => set({ isDarkMode }),
      setDisplayLang: (displayLang) => set({ displayLang }),
      setForumActiveTab: (forumActiveTab) => set({ forumActiveTab }),
      setCallback: (callback) => set({ callback }),
    }),
    {
      name: SESSION_STORAGE_KEY,
      version: 1,
      storage: createJSONStorage(() => localStorage),
      partialize: (state): SessionState => ({
        authToken: state.authToken,
        refreshToken: state.refreshToken,
        emailAddress: state.emailAddress,
        userId: state.userId,
        is_staff: state.is_staff,
        roles: state.roles,
        editorCourses: state.editorCourses,
        isDarkMode: state.isDarkMode,
        displayLang: state.displayLang,
        forumActiveTab: state.forumActiveTab,
        callback: state.callback,
      }),
    },
  ),
);

/**
 * Keeps every tab of this browser on one session: when another tab signs in or out, refreshes the
 * tokens, or changes the language or colour scheme, this tab reloads the stored state. Without it a
 * tab would later present a refresh token another tab has already used, which the server takes for
 * token theft and answers by revoking the session in every tab.
 */
export function syncSessionAcrossTabs(target: Window = window): () => void {
  const onStorage = (event: StorageEvent) => {
    if (event.key === SESSION_STORAGE_KEY || event.key === null) void useSession.persist.rehydrate();
  };
  target.addEventListener('storage', onStorage);
  return () => target.removeEventListener('storage', onStorage);
}

export function isAuthenticated(state: Pick<SessionState, 'authToken'> = useSession.getState()): boolean {
  return state.authToken != null;
}

export function useIsAuthenticated(): boolean {
  return useSession((s) => s.authToken != null);
}
