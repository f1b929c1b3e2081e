import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** The project whose files run one at a time (test/support/one-at-a-time-lock.ts). */
export const ONE_AT_A_TIME_PROJECT = 'one-at-a-time';

/**
 * The order in which test files are handed to workers: vitest's own (files that failed last time
 * first, then the longest), with the one-at-a-time files spread evenly among the others rather than
 * all first. Only one of them runs at a time; a worker handed another waits for the lock, so a run
 * of them in a row would leave the other workers idle.
 */
export class SpreadOneAtATimeSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const exclusive = sorted.filter((file) => file.project.name === ONE_AT_A_TIME_PROJECT);
    const others = sorted.filter((file) => file.project.name !== ONE_AT_A_TIME_PROJECT);
    if (exclusive.length === 0) return others;
    const spacing = Math.ceil(others.length / exclusive.length);
    return exclusive.flatMap((file, index) => [
      file,
      ...others.slice(index * spacing, (index + 1) * spacing),
    ]);
  }
}
