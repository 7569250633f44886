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
    // Files share their worker's process and loaded modules (isolate: false): a fresh fork per file cost
    // ~1.2 s each, 123 s of a 402 s run for 104 files. Shared modules mean a file must not lean on
    // module state another file may have moved (the fixtures number registers per hub, not per module).
    isolate: false,
    // Three files at a time: most files wait on a browser, a child process or a socket, so three keep
    // the two cores busy (402 s → 166 s on this machine; four was slower, CPU-bound at 176 s). Tests that
    // wait on timers use margins a busy worker does not miss (the Datecs fake's frames: 120 ms).
    maxWorkers: 3,
    setupFiles: ['test/support/setup.ts'],
    // The browser and page tests share one build of hub/web; made once here, never by two forks at once.
    globalSetup: ['test/web/global-setup.ts'],
  },
});
