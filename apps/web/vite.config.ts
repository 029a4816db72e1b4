// Builds the staff web app into dist/ (served by the API server in production); in development
// proxies the API, its WebSocket, signed file URLs and the server-served chat widget (loader, frame,
// hosted chat page) to the server on port 3000, so embed snippets and links work on either origin.
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const API_ORIGIN = 'http://localhost:3000';

export default defineConfig({
  plugins: [react(), tailwindcss()],
  server: {
    proxy: {
      '/api': { target: API_ORIGIN, ws: true },
      '/files': { target: API_ORIGIN },
      '/widget.js': { target: API_ORIGIN },
      '/widget/': { target: API_ORIGIN },
      '/messages/chat/': { target: API_ORIGIN },
    },
  },
  build: {
    outDir: 'dist',
    assetsDir: 'assets',
    rolldownOptions: {
      output: {
        codeSplitting: {
          // React and the router change far less often than app code: a separate chunk stays
          // cached across deploys. Only libraries every page loads belong here, or lazy screens
          // would stop being lazy.
          groups: [
            {
              name: 'react',
              test: /[\\/]node_modules[\\/](react|react-dom|react-router|scheduler)[\\/]/,
            },
          ],
        },
      },
    },
  },
});
