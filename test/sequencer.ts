/**
 * The order test files start in. vitest starts the files that took longest last time first, so a
 * long file does not start last and run on alone at the end; with no timings of an earlier run (a
 * fresh clone, as in CI) it starts the largest files first instead. The longest files are not the
 * largest but those that start processes, servers and browsers (test/chain, test/e2e, test/web):
 * started by size, the chain's partition and SIGKILL files (small, 12–20 s) came 107–116 s into a
 * 130 s run on two cores, which idled for the last 10 s waiting on them. Without timings for every
 * file, those three folders go first, each file in vitest's order.
 */
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const STARTS_PROCESSES = /\/test\/(chain|e2e|web)\//;

export default class SlowFoldersFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const timed = (f: TestSpecification) => this.ctx.cache.getFileTestResults(`${f.project.name}:${relative(this.ctx.config.root, f.moduleId)}`) !== undefined;
    if (sorted.every(timed)) return sorted;
    return [...sorted.filter((f) => STARTS_PROCESSES.test(f.moduleId)), ...sorted.filter((f) => !STARTS_PROCESSES.test(f.moduleId))];
  }
}
