// Builds the chat app that runs inside the widget iframe and on the hosted group chat page.
// The server serves dist/frame.html for those pages and dist/assets/ under /widget/assets/.
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { widgetMessages } from './widget-messages.plugin.ts';

export default defineConfig({
  base: '/widget/',
  plugins: [react(), widgetMessages()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsDir: 'assets',
    rolldownOptions: { input: { frame: 'frame.html' } },
  },
});
