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
    // Four files at a time on two cores: the files wait on browsers, child processes, sockets and
    // timeouts often enough that fewer leave the machine idle. Two left a fifth idle (78 % busy);
    // three, once Chromium's per-window omnibox popups were turned off (the full browser then; the headless shell has none),
    // 82 % (131 s for a fresh clone's run, 159 files); four 92-94 % (123 s), every file passing.
    // At stop 24 three made the chain's week catch-up take 35 s instead of 4 s now and then; most
    // likely the store sleeping out a publish backoff built up before its first connection to NATS,
    // which it no longer does (hub/chain/publisher.ts retryNow): with four it took 3-9 s.
    maxWorkers: 4,
    // Files that start processes and browsers first, also on a fresh clone (test/sequencer.ts).
    sequence: { sequencer: SlowFoldersFirst },
    setupFiles: ['test/support/setup.ts'],
    // The browser and page tests share one build of hub/web; made once here, never by two forks at once.
    globalSetup: ['test/web/global-setup.ts'],
  },
});
