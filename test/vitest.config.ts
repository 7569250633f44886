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
    // Each file in a fresh fork (vitest's default isolation). Keeping the modules loaded across files
    // (isolate: false) saved about a third of the run, but a full run that way failed a chain test and
    // a settings page test that pass alone and in a fresh fork: something one file leaves in the
    // process reaches a later one. Until that is found, isolation; zod is still extended before
    // each file (test/support/setup-zod.ts), which costs nothing.
    setupFiles: ['test/support/setup-zod.ts'],
    // Vitest's default (one file at a time beside the main process on two cores). Three at a time
    // saved little (520 → 461 s in .ci/run) and made the browser tests' timing claims flaky there.
    // The browser and page tests share one build of hub/web; made once here, never by two forks at once.
    globalSetup: ['test/web/global-setup.ts'],
  },
});
