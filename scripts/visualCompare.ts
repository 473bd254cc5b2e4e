// Screenshots of the main views, and a pixel-by-pixel comparison of two sets of them: the
// proof that a change meant to be invisible (moving CSS between files) changed no pixel.
//
//   npm run build && cp -r out/renderer /tmp/renderer-before          (on the commit before)
//   npm run build                                                       (on the commit after)
//   npm run visual -- capture /tmp/visual-before --renderer /tmp/renderer-before
//   npm run visual -- capture /tmp/visual-after
//   npm run visual -- compare /tmp/visual-before /tmp/visual-after
//
// `capture` drives the built browser host (out/main) with the scripted model server, exactly
// as the e2e tests do, and writes one PNG per view. With --renderer it serves that renderer
// build instead of out/renderer (from a copy of the host under out/visual-host, since the
// host serves the renderer beside it). Animations, transitions, the caret, clock
// times and temp-dir paths are frozen or masked so that two captures of the same build are
// identical. `compare` decodes both sets in Chromium (canvas ImageData: no PNG library) and
// prints the share of differing pixels per view; it exits 1 when a view passes the limit.
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { startScriptedServer, type ChatBody, type Turn } from '../tests/support/scriptedServer';
import { HOST_ENTRY, launchApp, launchChromium, ROOT, type App } from '../tests/e2e/support/app';
import { systemPromptOf } from '../tests/e2e/support/chatScript';

/** Differing pixels allowed per view, in percent (issue 25: at most 0.1%). */
const LIMIT_PERCENT = 0.1;

const FREEZE_CSS = `*, *::before, *::after {
  animation: none !important;
  transition: none !important;
  caret-color: transparent !important;
  scroll-behavior: auto !important;
}`;

const TASKS = [
  { title: 'Gather the requirements', status: 'completed' },
  { title: 'Sketch the data model', status: 'completed' },
  { title: 'Build the import screen', status: 'in_progress', activeForm: 'Building the import screen' },
  { title: 'Write the tests', status: 'pending' },
  { title: 'Package the app', status: 'pending' },
];

const REPLY = [
  'Here is the **plan**, with `inline code`, a list and a table:',
  '',
  '1. Read the file',
  '2. Parse each line',
  '',
  '| Step | Owner |',
  '| --- | --- |',
  '| Parse | model |',
  '| Review | you |',
  '',
  '```ts',
  '// Parses one line of the inventory.',
  'export function parse(line: string): number {',
  "  const [name, count] = line.split(',');",
  '  return name ? Number(count) : 0;',
  '}',
  '```',
  '',
  'See [the docs](https://example.com/docs) for more.',
].join('\n');

const lastUser = (body: ChatBody) => String(body.messages.findLast((m) => m.role === 'user')?.content ?? '');
const endsWithToolResult = (body: ChatBody) => body.messages.at(-1)?.role === 'tool';
const toolResults = (body: ChatBody) => body.messages.filter((m) => m.role === 'tool').length;

/** The model: one conversation with tasks, a tool call and a rich reply; one with two workers. */
function play(body: ChatBody): Turn {
  const system = systemPromptOf(body);
  if (!body.stream)
    return { text: JSON.stringify(body.messages).includes('Delegate') ? 'Two workers' : 'Inventory importer' };
  if (/<task>\n/.test(system)) return { text: 'Summary: three lines about apples.' };
  const asked = body.messages.filter((m) => m.role === 'user').length;
  if (lastUser(body).startsWith('Delegate') || /^Worker \d/.test(lastUser(body))) {
    if (endsWithToolResult(body)) return { text: 'Two workers are on it.' };
    if (/^Worker \d/.test(lastUser(body))) return { text: 'Both summaries are in.' };
    return {
      toolCalls: ['a', 'b'].map((name) => ({
        name: 'start_task',
        arguments: JSON.stringify({ task_description: `Summarize ${name}.txt` }),
      })),
    };
  }
  if (asked > 1) return { text: 'Noted.' };
  const done = toolResults(body);
  if (done === 0)
    return {
      toolCalls: [
        {
          name: 'manage_todo_list',
          arguments: JSON.stringify({ todoList: TASKS.map((t, i) => ({ id: i + 1, ...t })) }),
        },
      ],
    };
  if (done === 1) return { toolCalls: [{ name: 'get_current_time', arguments: '{"timeZone": "UTC"}' }] };
  return { text: REPLY };
}

/** Hides what differs between two runs of the same build: clocks, temp paths, tool output. */
async function settle(page: Page): Promise<void> {
  await page.evaluate(() => {
    for (const el of document.querySelectorAll('time')) el.textContent = '12:00';
    for (const el of document.querySelectorAll('details pre')) {
      if (/"iso"/.test(el.textContent ?? '')) el.textContent = '{ "iso": "masked" }';
    }
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? '';
      const masked = text
        .replace(/stepwise-e2e-\w+/g, 'stepwise-e2e-XXXXXX')
        .replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:PORT');
      if (masked !== text) node.textContent = masked;
    }
    for (const input of document.querySelectorAll('input'))
      input.value = input.value.replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:PORT');
    (document.activeElement as HTMLElement | null)?.blur();
  });
  await page.mouse.move(0, 0);
  // Two frames: what the masks changed is laid out and painted before the shot.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
}

/**
 * Scrolls the messages to their end until the list stops moving: where a streamed reply
 * left the scroll position depends on timing, its end does not.
 */
async function toEnd(page: Page): Promise<void> {
  await page.getByRole('log', { name: 'Messages' }).evaluate(async (el) => {
    const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
    let last = -1;
    while (el.scrollTop !== last) {
      last = el.scrollTop;
      el.scrollTo(0, el.scrollHeight);
      await frame();
      await frame();
    }
  });
}

async function shoot(page: Page, dir: string, name: string): Promise<void> {
  await settle(page);
  await page.screenshot({ path: path.join(dir, `${name}.png`) });
  console.log(`  ${name}`);
}

async function freeze(app: App): Promise<void> {
  await app.page.addStyleTag({ content: FREEZE_CSS });
  // tsx keeps function names with a helper the page does not have.
  await app.page.evaluate('globalThis.__name = (f) => f');
}

async function captureFirstRun(dir: string, script: string): Promise<void> {
  const app = await launchApp({ env: { OPENAI_BASE_URL: undefined }, script });
  try {
    await freeze(app);
    await app.page.getByRole('region', { name: 'Connect a model' }).waitFor();
    await shoot(app.page, dir, '01-first-run');
  } finally {
    await app.close();
  }
}

async function captureApp(dir: string, script: string): Promise<void> {
  const server = await startScriptedServer({ script: (request) => play(request.body) });
  const app = await launchApp({
    env: { OPENAI_BASE_URL: server.baseUrl, OPENAI_API_KEY: 'sk-test', STEPWISE_MODEL: 'scripted' },
    script,
  });
  const page = app.page;
  const composer = page.getByRole('textbox', { name: 'Message' });
  const send = async (text: string, reply: string) => {
    await composer.fill(text);
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page
      .getByRole('article', { name: 'Assistant message', exact: true })
      .last()
      .getByText(reply)
      .waitFor({ timeout: 20_000 });
    await page.getByRole('button', { name: 'Send', exact: true }).waitFor({ timeout: 20_000 });
  };
  const conversation = (title: string) =>
    page.getByRole('list', { name: 'Saved conversations' }).getByRole('link', { name: title });
  try {
    await freeze(app);
    await shoot(page, dir, '02-home-empty');

    await page.getByRole('button', { name: 'New conversation', exact: true }).click();
    await send('Delegate two summaries', 'Both summaries are in.');
    await page.getByRole('navigation', { name: 'Workers' }).waitFor();
    await conversation('Two workers').waitFor();
    await shoot(page, dir, '03-workers');

    await page.getByRole('button', { name: 'New conversation', exact: true }).click();
    await send('Plan the inventory importer', 'See');
    await conversation('Inventory importer').waitFor();
    await composer.fill('A draft in the composer');
    await toEnd(page);
    await shoot(page, dir, '04-conversation');

    const card = page.locator('summary').filter({ hasText: 'Tool call get_current_time, done' });
    await card.click();
    await page.locator('details', { has: card }).locator('pre').nth(1).waitFor();
    await card.evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await shoot(page, dir, '05-tool-card');

    const tasks = page.getByRole('region', { name: 'Tasks', exact: true });
    const toggle = tasks.getByRole('button', { name: /^(Expand|Collapse) task list$/ });
    if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
    await tasks.getByRole('list', { name: 'Task list' }).waitFor();
    await tasks.getByRole('button', { name: /^1 tool call/ }).click();
    await tasks.getByRole('list', { name: 'Tool calls of task 3' }).waitFor();
    await toEnd(page);
    await shoot(page, dir, '06-task-header');

    await page.emulateMedia({ colorScheme: 'dark' });
    // The end of the reply, so the dark theme's code colours are in the shot.
    await toEnd(page);
    await shoot(page, dir, '07-conversation-dark');
    await page.emulateMedia({ colorScheme: 'light' });

    await page.setViewportSize({ width: 740, height: 800 });
    await toEnd(page);
    await shoot(page, dir, '08-conversation-narrow');
    await page.setViewportSize({ width: 1280, height: 800 });

    await page.getByRole('button', { name: 'New conversation', exact: true }).click();
    await composer.waitFor();
    await shoot(page, dir, '09-home-with-sidebar');

    await page.getByRole('button', { name: 'Tasks', exact: true }).click();
    await page.getByRole('region', { name: 'Task board' }).waitFor();
    await shoot(page, dir, '10-board');

    await page.getByRole('complementary', { name: 'Conversations' }).getByRole('button', { name: 'Settings' }).click();
    const sections = [
      'Providers',
      'Models',
      'Agent',
      'Instructions',
      'Prompt library',
      'Tools (MCP)',
      'Sharing task lists',
      'Appearance',
      'About',
    ];
    for (const [i, name] of sections.entries()) {
      await page.getByRole('link', { name, exact: true }).click();
      await page.getByRole('heading', { name, exact: true }).first().waitFor();
      // About shows the data directory once the host has answered.
      if (name === 'About') await page.getByText(/stepwise-e2e-/).waitFor();
      await shoot(page, dir, `${11 + i}-settings-${name.toLowerCase().replace(/\W+/g, '-')}`);
    }
  } finally {
    await app.close();
    await server.close();
  }
}

/** The built host beside a copy of `renderer`: out/visual-host/{main,renderer}. */
function hostServing(renderer: string): string {
  const root = path.join(ROOT, 'out', 'visual-host');
  fs.rmSync(root, { recursive: true, force: true });
  fs.cpSync(path.dirname(HOST_ENTRY), path.join(root, 'main'), { recursive: true });
  fs.cpSync(renderer, path.join(root, 'renderer'), { recursive: true });
  return path.join(root, 'main', path.basename(HOST_ENTRY));
}

async function capture(dir: string, renderer: string | undefined): Promise<void> {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const script = renderer ? hostServing(path.resolve(renderer)) : HOST_ENTRY;
  console.log(`Capturing ${renderer ?? 'out/renderer'} into ${dir}`);
  try {
    await captureFirstRun(dir, script);
    await captureApp(dir, script);
  } finally {
    if (renderer) fs.rmSync(path.join(ROOT, 'out', 'visual-host'), { recursive: true, force: true });
  }
}

interface Difference {
  view: string;
  percent: number;
  size: string;
}

async function compare(before: string, after: string): Promise<boolean> {
  const views = fs
    .readdirSync(before)
    .filter((f) => f.endsWith('.png') && !f.endsWith('.diff.png'))
    .sort();
  const missing = views.filter((v) => !fs.existsSync(path.join(after, v)));
  const browser = await launchChromium();
  const rows: Difference[] = [];
  try {
    const page = await browser.newPage();
    // tsx keeps function names with a helper the page does not have.
    await page.evaluate('globalThis.__name = (f) => f');
    for (const view of views.filter((v) => !missing.includes(v))) {
      const a = fs.readFileSync(path.join(before, view)).toString('base64');
      const b = fs.readFileSync(path.join(after, view)).toString('base64');
      const result = await page.evaluate(
        async ([a, b]) => {
          const decode = async (data: string) => {
            const bitmap = await createImageBitmap(await (await fetch(`data:image/png;base64,${data}`)).blob());
            const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
            const ctx = canvas.getContext('2d')!;
            ctx.drawImage(bitmap, 0, 0);
            return ctx.getImageData(0, 0, bitmap.width, bitmap.height);
          };
          const [x, y] = await Promise.all([decode(a), decode(b)]);
          if (x.width !== y.width || x.height !== y.height)
            return { differing: -1, total: 0, size: `${x.width}x${x.height} vs ${y.width}x${y.height}`, diff: '' };
          const out = new OffscreenCanvas(x.width, x.height);
          const ctx = out.getContext('2d')!;
          const marks = ctx.createImageData(x.width, x.height);
          let differing = 0;
          for (let i = 0; i < x.data.length; i += 4) {
            const same =
              x.data[i] === y.data[i] &&
              x.data[i + 1] === y.data[i + 1] &&
              x.data[i + 2] === y.data[i + 2] &&
              x.data[i + 3] === y.data[i + 3];
            // The diff image: the "before" shot faded, differing pixels in red.
            marks.data[i] = same ? 128 + (x.data[i] >> 1) : 255;
            marks.data[i + 1] = same ? 128 + (x.data[i + 1] >> 1) : 0;
            marks.data[i + 2] = same ? 128 + (x.data[i + 2] >> 1) : 0;
            marks.data[i + 3] = 255;
            if (!same) differing++;
          }
          let diff = '';
          if (differing) {
            ctx.putImageData(marks, 0, 0);
            const blob = await out.convertToBlob({ type: 'image/png' });
            const bytes = new Uint8Array(await blob.arrayBuffer());
            let binary = '';
            for (let i = 0; i < bytes.length; i += 0x8000)
              binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
            diff = btoa(binary);
          }
          return { differing, total: x.width * x.height, size: `${x.width}x${x.height}`, diff };
        },
        [a, b] as const,
      );
      if (result.diff)
        fs.writeFileSync(path.join(after, view.replace(/\.png$/, '.diff.png')), Buffer.from(result.diff, 'base64'));
      rows.push({
        view: view.replace(/\.png$/, ''),
        percent: result.differing < 0 ? 100 : (100 * result.differing) / result.total,
        size: result.size,
      });
    }
  } finally {
    await browser.close();
  }
  console.log('| view | size | differing pixels |');
  console.log('| --- | --- | --- |');
  for (const row of rows) console.log(`| ${row.view} | ${row.size} | ${row.percent.toFixed(4)}% |`);
  for (const view of missing) console.log(`| ${view} | missing in ${after} | — |`);
  const worst = rows.filter((r) => r.percent > LIMIT_PERCENT);
  const ok = worst.length === 0 && missing.length === 0;
  console.log(
    ok
      ? `Every view within ${LIMIT_PERCENT}%.`
      : `Over ${LIMIT_PERCENT}%: ${[...worst.map((r) => r.view), ...missing].join(', ')} (see *.diff.png in ${after}).`,
  );
  return ok;
}

const [command, first, second, third] = process.argv.slice(2);
if (command === 'capture' && first && (second === undefined || (second === '--renderer' && third))) {
  await capture(path.resolve(first), third);
} else if (command === 'compare' && first && second) {
  process.exitCode = (await compare(path.resolve(first), path.resolve(second))) ? 0 : 1;
} else {
  console.error(
    'Usage: npm run visual -- capture <dir> [--renderer <built renderer dir>] | compare <before-dir> <after-dir>',
  );
  process.exitCode = 2;
}
