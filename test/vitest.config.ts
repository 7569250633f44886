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
    // Most of the suite's time is waiting (browsers, real processes, sockets), not CPU: three files at
    // a time on two cores took the suite from 520 to 426 s on a loaded machine, all green.
    maxWorkers: 3,
    // The browser and page tests share one build of hub/web; made once here, never by two forks at once.
    globalSetup: ['test/web/global-setup.ts'],
  },
});
