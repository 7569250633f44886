/**
 * `npm run hostile -- [--requests 50000] [--seed 30] [--concurrency 12]`: the generated hostile-input
 * run of test/http/generated-hostile.test.ts, as large as asked, outside the test suite. Prints the
 * figures and every distinct failure once; exits 1 when there is one.
 */
import '../hub/http/api-docs.js';
import { setPasswordCostForTests } from '../hub/core/passwords.js';
import { describeReport, runHostile } from '../test/support/hostile-run.js';

const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  const v = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  if (!Number.isInteger(v) || v < 1) {
    process.stderr.write(`--${name} takes a whole number ≥ 1\n`);
    process.exit(2);
  }
  return v;
};

// As the suite's in-process hubs: logins made by the run hash at the test cost.
setPasswordCostForTests(1024);
const report = await runHostile({
  seed: arg('seed', 30),
  total: arg('requests', 50_000),
  concurrency: arg('concurrency', 12),
  progress: (done) => process.stderr.write(`${done} requests…\n`),
});
process.stdout.write(`${describeReport(report)}\n`);
process.exit(report.failures.length || report.afterwards.length ? 1 : 0);
