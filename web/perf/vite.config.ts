// Test-only build of web/perf/ (the grid perf page) into dist/web-perf/, used by
// test/e2e/target-window-perf.test.ts; never part of dist/web. Run:
// npx vite build --config web/perf/vite.config.ts
import { defineConfig } from 'vite';

export default defineConfig({
  root: import.meta.dirname,
  base: './',
  oxc: { jsx: { runtime: 'automatic', importSource: 'react' } },
  build: {
    outDir: '../../dist/web-perf',
    emptyOutDir: true,
    rolldownOptions: {
      input: { grid: `${import.meta.dirname}/grid.html` },
      onwarn(warning, warn) {
        if (warning.code !== 'MODULE_LEVEL_DIRECTIVE') warn(warning);
      },
    },
  },
});
