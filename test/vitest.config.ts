import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: fileURLToPath(new URL('..', import.meta.url)),
  test: {
    include: ['test/**/*.test.ts'],
    // A test that hangs fails after a minute; the browser tests wait up to 20 s per step under load.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // One fork runs file after file, keeping the modules it has loaded: starting a fork and loading
    // the hub's modules again for each of ~90 files cost more than most files' tests (10 HTTP files:
    // 27 s isolated, 12 s not). The tests share no mocks, no stubbed globals and no environment
    // changes; each file starts its own hubs, servers and browsers and stops them in afterAll.
    // Shared modules do mean shared zod schemas: zod is extended with .openapi() before any file
    // loads one (test/support/setup-zod.ts), whatever order the files run in.
    isolate: false,
    setupFiles: ['test/support/setup-zod.ts'],
    // Vitest's default (one file at a time beside the main process on two cores). Three at a time
    // saved little (520 → 461 s in .ci/run) and made the browser tests' timing claims flaky there.
    // The browser and page tests share one build of hub/web; made once here, never by two forks at once.
    globalSetup: ['test/web/global-setup.ts'],
  },
});
