import { defineConfig } from 'vitest/config';

// Unit and conformance tests live beside the code (src/**/x.test.ts). Real-client and browser
// tests live under e2e/ and run with e2e/vitest.config.ts.
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'scripts/**/*.test.ts', 'bench/**/*.test.ts'],
    environment: 'node',
    testTimeout: 20000,
  },
});
