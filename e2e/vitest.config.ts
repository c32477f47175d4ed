import { defineConfig } from 'vitest/config';

// Real clients (kubectl, helm, @kubernetes/client-node) against the Node host started as a child
// process. Each file starts its own server; files run one after another so two kubectl-heavy
// files never compete for the machine's two cores.
export default defineConfig({
  test: {
    include: ['e2e/**/*.test.ts'],
    // KP_E2E_STORAGE=etcd: the hosts run on an etcd member started for the run.
    globalSetup: ['e2e/etcd-global-setup.ts'],
    environment: 'node',
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 60_000,
  },
});
