// Build of the explorer page: a static site in web/dist that runs kernarg's core in the browser.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const core = fileURLToPath(new URL('../src/index.ts', import.meta.url));

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  // Relative asset URLs, so the folder works from any path of any static host.
  base: './',
  resolve: { alias: { kernarg: core } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // The maps list every module in the bundle; test/web/bundle.test.ts reads them.
    sourcemap: true,
    // One chunk on purpose: the page needs the editor and the core at once.
    chunkSizeWarningLimit: 1024,
  },
  server: { open: false },
});
