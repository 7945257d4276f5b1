/**
 * Vite build of the app tab. Relative asset paths (`base: './'`) because the server serves the page
 * under a base path chosen at run time (it injects `<base href>` into index.html); the router reads
 * the same base from a meta tag. Views are split into lazy chunks so the first page stays small
 * (chart.js is only fetched by views that draw charts).
 */
import { defineConfig } from 'vite';
import vue from '@vitejs/plugin-vue';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root,
  base: './',
  plugins: [vue()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    reportCompressedSize: false,
    chunkSizeWarningLimit: 400,
  },
  server: {
    // `vite --config ui/vite.config.ts` during development: the API runs on 127.0.0.1:8484.
    proxy: { '/api': 'http://127.0.0.1:8484' },
  },
});
