import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Vitest's order (failed first, then the slowest), with the files of the two lanes alternating: the
 * two workers then take a browser file and a Podman file at a time, rather than two files of one
 * lane, of which the second would wait for the first (test/support/lane-lock.ts).
 */
export class LaneSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const of = (lane: string) => sorted.filter((file) => file.project.name === lane);
    const browser = of('browser');
    const podman = of('podman');
    const alternating = Array.from({ length: Math.max(browser.length, podman.length) }, (_, index) =>
      [browser[index], podman[index]].filter((file) => file !== undefined),
    ).flat();
    return [...sorted.filter((file) => !['browser', 'podman'].includes(file.project.name)), ...alternating];
  }
}
