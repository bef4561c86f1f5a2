// The modules of the stages of the app's start (src/main.tsx imports each when its stage comes). The
// build emits this file as an entry of its own, never loaded, so that their modules count as the first
// screen's (Rolldown's `$initial`) and go into the app's one chunk (vite-boot-script.ts), where the
// stages find them already loaded.
export { startData } from './start-data.ts';
export { createRoot } from 'react-dom/client';
export { App } from './App.tsx';
export { prepareFormatters } from '../i18n/format.ts';
export { useSession } from '../features/auth/session.ts';
