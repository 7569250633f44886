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
    // Two files at a time. Three finished sooner on a quiet machine (125–131 s against ~148 s) but
    // starved whatever ran beside the chain's heaviest test (a hub, two HQ processes, PostgreSQL and
    // NATS catching up a week): its catch-up went from 4 s to 35 s and a browser test beside it now
    // and then waited past its 20 s for a page. Two runs it all without such contention (and with
    // less CPU in all: 111 s against 150–165 s). Four was slower still.
    maxWorkers: 2,
    setupFiles: ['test/support/setup.ts'],
    // The browser and page tests share one build of hub/web; made once here, never by two forks at once.
    globalSetup: ['test/web/global-setup.ts'],
  },
});
