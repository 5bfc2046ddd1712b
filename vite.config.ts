/**
 * The React client's build: sources in client/, output in dist/client (the server serves its
 * index.html for every non-API GET). In development, /api (and its websocket) goes to the
 * server on port 3000, so the client and the server share one origin as in production.
 */
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('./client', import.meta.url));
const outDir = fileURLToPath(new URL('./dist/client', import.meta.url));
const apiTarget = process.env.MAPFOLD_API_URL ?? 'http://localhost:3000';

export default defineConfig({
  root,
  // .env files for VITE_* variables live at the repository root, beside package.json.
  envDir: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react()],
  build: {
    outDir,
    emptyOutDir: true,
    sourcemap: true,
    rolldownOptions: {
      // Two pages: the app (index.html) and the public map viewer (viewer.html, served at
      // /m/{id}), which loads only the viewer's code.
      input: {
        main: fileURLToPath(new URL('./client/index.html', import.meta.url)),
        viewer: fileURLToPath(new URL('./client/viewer.html', import.meta.url)),
      },
    },
  },
  server: {
    proxy: {
      '/api': { target: apiTarget, ws: true, changeOrigin: false },
    },
  },
  preview: {
    proxy: {
      '/api': { target: apiTarget, ws: true, changeOrigin: false },
    },
  },
});
