/**
 * Before every test file (vitest setupFiles):
 *
 * - zod extended with `.openapi()` (hub/http/api-docs.ts does it when imported), as the hub's own start
 *   does before it makes its schemas. A zod schema only gets the method if it is made after the
 *   extension; the files share one process and its loaded modules (isolate: false), so a file that
 *   loaded some resource's schemas without the API docs would otherwise leave schemas without it for
 *   the next file that builds the document.
 * - In-process hubs hash passwords at a test cost (N = 2^10, ~1 ms instead of ~30 ms): the suite makes
 *   and checks over a thousand. Hubs started as processes (test/e2e, test/chain) hash at the real cost,
 *   test/http/auth.test.ts checks the real cost, and the login-flood test puts it back for its run.
 * - After each test, the browser windows it opened are closed (test/support/chromium.ts).
 */
import '../../hub/http/api-docs.js';
import { afterEach } from 'vitest';
import { setPasswordCostForTests } from '../../hub/core/passwords.js';
import { closeOpenContexts } from './chromium.js';

export const TEST_PASSWORD_COST = 1024;
setPasswordCostForTests(TEST_PASSWORD_COST);
afterEach(closeOpenContexts);
