/**
 * The order test files start in. vitest starts the files that took longest last time first, so a
 * long file does not start last and run on alone at the end; with no timings of an earlier run (a
 * fresh clone, as in CI) it starts the largest files first instead. The longest files are not the
 * largest but those that start processes, servers and browsers (test/chain, test/e2e, test/web):
 * started by size, the chain's partition and SIGKILL files (small, 12–20 s) came 107–116 s into a
 * 130 s run on two cores, which idled for the last 10 s waiting on them. Without timings for every
 * file, those three folders go first, each file in vitest's order; then the few small files elsewhere
 * that run long on their own (thousands of generated requests or bodies, a login flood, the change
 * feed's streams): by size they came last, and the generated hostile run (12 s) ran
 * alone for the last 11 s of a run, one core idle.
 */
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const STARTS_PROCESSES = /\/test\/(chain|e2e|web)\//;
const LONG_ALONE = /\/test\/(http\/generated-hostile|http\/login-flood|events\/changes|tickets\/fast-body)\.test\.ts$/;

export default class SlowFoldersFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const timed = (f: TestSpecification) => this.ctx.cache.getFileTestResults(`${f.project.name}:${relative(this.ctx.config.root, f.moduleId)}`) !== undefined;
    if (sorted.every(timed)) return sorted;
    const first = (f: TestSpecification) => (STARTS_PROCESSES.test(f.moduleId) ? 0 : LONG_ALONE.test(f.moduleId) ? 1 : 2);
    return [0, 1, 2].flatMap((rank) => sorted.filter((f) => first(f) === rank));
  }
}
