import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The console builds into dist/web, which the gateway serves at `/` (src/modules/console).
export default defineConfig({
  root: import.meta.dirname,
  plugins: [react()],
  build: {
    outDir: path.resolve(import.meta.dirname, '../dist/web'),
    emptyOutDir: true,
    // Every script is a file of its own: the content security policy allows no inline script.
    assetsInlineLimit: 0,
    chunkSizeWarningLimit: 600,
  },
  server: {
    // `npm run dev:web` proxies the API to a gateway started with `npm run dev`.
    proxy: Object.fromEntries(
      ['/api', '/auth', '/openapi.json', '/docs', '/sites'].map((prefix) => [
        prefix,
        'http://127.0.0.1:8080',
      ]),
    ),
  },
});
