import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Integration files that need modules of their own: they replace a module (`vi.mock` of
 * Electron), spy on the console, or count the process's open handles.
 */
const ISOLATED = [
  'tests/integration/electron.*.test.ts',
  'tests/integration/chat.secrets.test.ts',
  'tests/integration/core.lifecycle.test.ts',
];

/**
 * Files that wait on a real clock: a routine set to "every minute" runs at the next minute,
 * and the host's idle limit is 30 s. Their wait leaves the CPU to the files beside them,
 * as long as they do not wait at the same time or at the end: so they are spread over
 * their project's order, the first at its start and none near its end. Vitest's own order
 * (the largest file first on a clean clone, which has no times from a last run) started
 * the small idle-limit file among the last, where its wait would be the run's tail.
 */
const CLOCK_WAITS = ['tests/e2e/routines.test.ts', 'tests/e2e/host.startupSockets.test.ts'];

class ClockWaitsSpread extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const waits = (spec: TestSpecification) => CLOCK_WAITS.some((file) => spec.moduleId.endsWith(file));
    const byProject = new Map<string, TestSpecification[]>();
    for (const spec of await super.sort(files)) {
      byProject.set(spec.project.name, [...(byProject.get(spec.project.name) ?? []), spec]);
    }
    return [...byProject.values()].flatMap((group) => {
      const waiting = group.filter(waits);
      const rest = group.filter((spec) => !waits(spec));
      // The i-th of n waiting files goes in after i/n of the others.
      waiting.forEach((spec, i) => rest.splice(Math.floor((i * rest.length) / waiting.length) + i, 0, spec));
      return rest;
    });
  }
}

export default defineConfig({
  test: {
    reporters: ['default', './tests/support/summaryReporter.ts'],
    sequence: { sequencer: ClockWaitsSpread },
    // Vitest's default on a 2-core machine is one worker for the whole run. Two: the unit
    // and integration files run two at a time, then the e2e files (a project of its own
    // worker count runs in a group of its own, `groupOrder`).
    maxWorkers: 2,
    projects: [
      {
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.{ts,tsx}'],
          environment: 'node',
          // One worker's files share its modules: importing the core again for each file cost
          // more than a third of the project's CPU. No unit file mocks a module; the one
          // that counts the process's open handles runs in integration, isolated.
          isolate: false,
          // A bound for a failure only: a CPU-bound test beside another on a busy machine.
          testTimeout: 20_000,
        },
      },
      {
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.ts'],
          exclude: ISOLATED,
          environment: 'node',
          // Crash and socket tests start the built host (tests/support/hostChild.ts).
          globalSetup: ['tests/e2e/buildOnce.ts'],
          testTimeout: 30_000,
          hookTimeout: 30_000,
          // As in unit: the files of a worker share its modules (importing the core for each
          // file again was a share of the run), except those listed in ISOLATED.
          isolate: false,
        },
      },
      {
        test: {
          name: 'integration-isolated',
          include: ISOLATED,
          environment: 'node',
          globalSetup: ['tests/e2e/buildOnce.ts'],
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/e2e/buildOnce.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
          // A poll ends as soon as the page shows what it waits for; its limit only bounds a
          // failure. Vitest's 1 s default is shorter than a busy machine's round trip through
          // host and page, and than the locators' own 30 s.
          expect: { poll: { timeout: 15_000 } },
          // Three files at a time: an e2e file waits on the page, the host, a scripted reply or
          // the routines' minute, and keeps a core busy meanwhile (the page's renders), so
          // mixed with the CPU-bound unit files they both ran slower. Each worker keeps one
          // Chromium (tests/e2e/support/app.ts).
          maxWorkers: 3,
          // The files share one worker's modules (no mocks, no module state between files:
          // each starts its own host process and browser), which saves re-importing the
          // core and Playwright for each of them.
          isolate: false,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
