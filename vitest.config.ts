import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    reporters: ['default', './tests/support/summaryReporter.ts'],
    // Vitest's default on a 2-core machine is one worker for the whole run. Two: the unit
    // and integration files run two at a time, then the e2e files one at a time (a
    // project of its own worker count runs in a group of its own, `groupOrder`).
    maxWorkers: 2,
    projects: [
      {
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.{ts,tsx}'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.ts'],
          environment: 'node',
          // Crash and socket tests start the built host (tests/support/hostChild.ts).
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
          // Three files at a time: an e2e file mostly waits (on the page, the host, a scripted
          // reply, the routines' minute), so one at a time left the two cores idle and took
          // most of npm test's time. Each worker keeps one Chromium (tests/e2e/support/app.ts).
          maxWorkers: 3,
          // The files share one worker's modules (no mocks, no module state between files:
          // each starts its own host process and browser), which saves re-importing the
          // core and Playwright for each of them: 80 s of the e2e project's 313.
          isolate: false,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
