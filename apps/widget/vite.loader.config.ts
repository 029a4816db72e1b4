// Builds the embed script, dist/widget.js: one small IIFE with no dependencies. It runs on other
// people's pages, so it targets older browsers than the chat app does.
import { defineConfig } from 'vite';

export default defineConfig({
  build: {
    outDir: 'dist',
    emptyOutDir: false,
    target: 'es2018',
    minify: true,
    lib: {
      entry: 'src/loader/loader.ts',
      formats: ['iife'],
      name: 'TitanChatLoader',
      fileName: () => 'widget.js',
    },
  },
});
