import { defineConfig } from 'vitest/config';

// Unit tests sit beside the code; integration suites live in test/. Suites that need
// root (network namespaces, raw sockets, podman) check for it themselves.
export default defineConfig({
  test: {
    include: ['{server,engine,agent,wasm,web,test}/**/*.test.{ts,tsx}'],
    exclude: ['node_modules/**', 'dist/**'],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    fileParallelism: true,
    maxWorkers: 2,
  },
});
