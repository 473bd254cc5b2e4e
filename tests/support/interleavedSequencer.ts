// Orders the test files so that the e2e files and the others share the run instead of
// taking turns. An e2e file mostly waits (on the page, the host, a scripted reply, the
// routines' minute) while unit and integration files keep a core busy: run one after the
// other, the waits left the cores idle. Each list keeps vitest's order (failed first, then
// longest first); they are merged so that both advance by the same share of their expected
// time, and so end together.
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import fs from 'node:fs';

const WAITING_PROJECT = 'e2e';

export default class InterleavedSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const waiting = sorted.filter((spec) => spec.project.name === WAITING_PROJECT);
    const busy = sorted.filter((spec) => spec.project.name !== WAITING_PROJECT);
    return merge(this.weighted(waiting), this.weighted(busy));
  }

  /** Each file with its share of its list's expected time: last run's duration, or its size. */
  private weighted(specs: TestSpecification[]): Array<{ spec: TestSpecification; share: number }> {
    const known = specs.map((spec) => this.ctx.cache.getTestSpecificationResult(spec)?.duration);
    const useDurations = known.every((duration) => typeof duration === 'number' && duration > 0);
    const weights = specs.map((spec, index) => (useDurations ? known[index]! : sizeOf(spec.moduleId)));
    const total = weights.reduce((sum, weight) => sum + weight, 0) || 1;
    return specs.map((spec, index) => ({ spec, share: weights[index] / total }));
  }
}

function sizeOf(file: string): number {
  try {
    return fs.statSync(file).size;
  } catch {
    return 1;
  }
}

function merge(
  a: Array<{ spec: TestSpecification; share: number }>,
  b: Array<{ spec: TestSpecification; share: number }>,
): TestSpecification[] {
  const out: TestSpecification[] = [];
  let i = 0;
  let j = 0;
  let doneA = 0;
  let doneB = 0;
  while (i < a.length || j < b.length) {
    if (j >= b.length || (i < a.length && doneA <= doneB)) {
      doneA += a[i].share;
      out.push(a[i++].spec);
    } else {
      doneB += b[j].share;
      out.push(b[j++].spec);
    }
  }
  return out;
}
