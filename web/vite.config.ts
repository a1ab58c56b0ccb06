// Vite 8 builds the console; its built-in oxc transform handles TSX, so no React plugin is
// needed. The dev server forwards API, command, hub and health paths to a local appliance.
import { defineConfig } from 'vite';

const appliance = 'http://127.0.0.1:8080';

export default defineConfig({
  root: import.meta.dirname,
  oxc: { jsx: { runtime: 'automatic', importSource: 'react' } },
  build: {
    outDir: '../dist/web',
    emptyOutDir: true,
    sourcemap: true,
    rolldownOptions: {
      // React Router and jotai mark modules "use client"; meaningless in a client bundle.
      onwarn(warning, warn) {
        if (warning.code !== 'MODULE_LEVEL_DIRECTIVE') warn(warning);
      },
    },
  },
  server: {
    proxy: {
      '/api': appliance,
      '/cmd': appliance,
      '/mainHub': { target: appliance, ws: true },
      '/healthz': appliance,
    },
  },
});
