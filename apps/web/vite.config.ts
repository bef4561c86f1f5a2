import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { bootScript } from './vite-boot-script.ts';
import { lazySchemas } from './vite-lazy-schemas.ts';
import { pageTexts } from './vite-page-texts.ts';
import { precompress } from './vite-precompress.ts';
import { markdownEntities, scrollAreaRefs } from './vite-import-swaps.ts';

const apiTarget = process.env.API_URL ?? 'http://localhost:3000';

// Read by the root vitest.config.ts 'web' project, which extends this file. (vitest types `test` against
// its own copy of vite, so it is kept out of this literal's type check.)
const vitestOptions = { test: { setupFiles: ['./src/test/setup.ts'] } };

export default defineConfig({
  root: import.meta.dirname,
  // bootScript: src/boot.ts runs before the app's code has arrived (the dictionary's download, zod's set-up);
  // the app's start (src/main.tsx) evaluates its modules in stages, all from one chunk.
  // precompress: brotli and gzip copies of the built text files, served in their place by the API.
  // scrollAreaRefs: keeps @floating-ui out of the first screen's code (see the file).
  // lazySchemas: the shared contracts' schemas are built on first use (see the file).
  // markdownEntities: markdown-it decodes `&copy;` with the browser's HTML parser (see the file).
  // pageTexts: the dictionaries cut into the shell's texts and each page's (see the file).
  plugins: [
    react(),
    bootScript('src/boot.ts', 'src/main.tsx', 'src/app/first-screen.ts'),
    precompress(),
    scrollAreaRefs(),
    lazySchemas(),
    markdownEntities(),
    pageTexts(),
  ],
  server: {
    port: 5173,
    proxy: { '/api': apiTarget },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    chunkSizeWarningLimit: 1500,
  },
  ...vitestOptions,
});
