// Helpers for e2e tests that drive the app against tests/support/scriptedServer.ts.
//
//   const turns = turnQueue({ title: () => 'Quarterly sales overview' });
//   const server = await startScriptedServer({ script: turns.script });
//   turns.push({ text: 'Hello' }, async () => { await gate.opened; return { text: 'later' }; });
//
// The agent loop's streaming requests take the queue in order; the auto-title's
// non-streaming request never consumes a turn, so a test does not have to know when the
// title is asked for.
import fs from 'node:fs';
import path from 'node:path';
import type { ChatBody, Script, ScriptedServer, Turn } from '../../support/scriptedServer';
import type { Page } from 'playwright-core';
import type { App } from './app';

export type Step = Turn | ((body: ChatBody) => Turn | Promise<Turn>);

export interface TurnQueue {
  script: Script;
  push(...steps: Step[]): void;
  /** Turns not yet taken. */
  pending(): number;
}

export function turnQueue(options: { title: (body: ChatBody) => string; fallback?: Turn }): TurnQueue {
  const queue: Step[] = [];
  return {
    script: async (request) => {
      if (!request.body.stream) return { text: options.title(request.body) };
      const step = queue.shift();
      if (!step) return options.fallback ?? { text: 'OK' };
      return typeof step === 'function' ? step(request.body) : step;
    },
    push: (...steps) => void queue.push(...steps),
    pending: () => queue.length,
  };
}

export interface Gate {
  opened: Promise<void>;
  open(): void;
}

/** A promise a scripted turn can wait on, so the test decides when the model answers. */
export function gate(): Gate {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

export const systemPromptOf = (body: ChatBody): string => String(body.messages[0]?.content ?? '');

export const SHOTS = path.join('/tmp', 'stepwise-e2e');

/** For afterEach: a screenshot and the host's stderr when a step failed. */
export async function reportFailure(
  app: App | undefined,
  prefix: string,
  context: { task: { name: string; result?: { state?: string } } },
) {
  if (context.task.result?.state !== 'fail' || !app) return;
  fs.mkdirSync(SHOTS, { recursive: true });
  const file = path.join(SHOTS, `failed-${prefix}-${context.task.name.replace(/\W+/g, '-')}.png`);
  await app.page.screenshot({ path: file }).then(
    () => console.error(`Screenshot of the failure: ${file}`),
    () => {},
  );
  const exit = app.host.child.exitCode ?? app.host.child.signalCode;
  console.error(
    `Host ${exit === null ? 'running' : `exited (${exit})`}; its stderr (tail):\n${app.host.stderr().slice(-4000)}`,
  );
}

const PLAN_TITLES = ['Gather requirements', 'Sketch the screens', 'Write the code'];

/**
 * A new conversation in which the model answers "Plan a small app" with a three-task list
 * (Gather requirements, Sketch the screens, Write the code, in the given statuses) and
 * "Plan ready."; resolves once that reply is shown.
 */
export async function sendSmallAppPlan(
  page: Page,
  turns: TurnQueue,
  statuses: readonly [string, string, string],
): Promise<void> {
  const todoList = PLAN_TITLES.map((title, i) => ({ id: i + 1, title, status: statuses[i] }));
  turns.push(
    { text: 'Here is the plan.', toolCalls: [{ name: 'manage_todo_list', arguments: JSON.stringify({ todoList }) }] },
    { text: 'Plan ready.' },
  );
  await page.getByRole('button', { name: 'New conversation', exact: true }).click();
  await page.getByRole('textbox', { name: 'Message' }).fill('Plan a small app');
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await page.getByRole('article', { name: 'Assistant message' }).getByText('Plan ready.').waitFor({ timeout: 15_000 });
}

/**
 * Asks "What changed?" and answers "Understood.": the system prompt of that request, where
 * the model is told about task changes made since its last turn (by the user or an agent).
 */
export async function nextSystemPrompt(
  page: Page,
  server: Pick<ScriptedServer, 'chatRequests'>,
  turns: TurnQueue,
): Promise<string> {
  const before = server.chatRequests().length;
  turns.push({ text: 'Understood.' });
  await page.getByRole('textbox', { name: 'Message' }).fill('What changed?');
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await page
    .getByRole('article', { name: 'Assistant message' })
    .last()
    .getByText('Understood.')
    .waitFor({ timeout: 15_000 });
  return systemPromptOf(
    server
      .chatRequests()
      .slice(before)
      .find((r) => r.body.stream)!.body,
  );
}
