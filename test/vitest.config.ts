import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import SlowFoldersFirst from './sequencer.js';

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
    // Three files at a time on two cores: the files wait on browsers, child processes and sockets
    // often enough that two left a fifth of the machine idle (126 s, 78 % busy; three: 106–113 s,
    // 91–93 %). At stop 24 three made the chain's week catch-up take 35 s instead of 4 s now and
    // then, and the browser test beside it time out; most likely the store sleeping out a publish
    // backoff built up before its first connection to NATS, which it no longer does
    // (hub/chain/publisher.ts retryNow): no such run since.
    maxWorkers: 3,
    // Files that start processes and browsers first, also on a fresh clone (test/sequencer.ts).
    sequence: { sequencer: SlowFoldersFirst },
    setupFiles: ['test/support/setup.ts'],
    // The browser and page tests share one build of hub/web; made once here, never by two forks at once.
    globalSetup: ['test/web/global-setup.ts'],
  },
});
