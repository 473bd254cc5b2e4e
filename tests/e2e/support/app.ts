// Drives Stepwise end to end: the built browser host (`out/main/host.js`) as a child
// process on a throwaway data dir, and Debian Chromium through playwright-core.
//
//   const app = await launchApp({ env: { OPENAI_BASE_URL: server.url } });
//   await app.page.getByRole('button', { name: 'New conversation', exact: true }).click();
//   await app.restart();          // same data dir, new host process, new page
//   await app.close();            // its browser context, host, and the data dir it created
//
// Lower-level pieces (startHostProcess, launchChromium) are exported for tests that
// need a host without a browser or several pages.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { seedPlanReviewOff } from '../../support/tempDir';

export const ROOT = path.resolve(import.meta.dirname, '../../..');
export const HOST_ENTRY = path.join(ROOT, 'out/main/host.js');
export const CHROMIUM_PATH = process.env.STEPWISE_CHROMIUM ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
  '--disable-quic',
  // Fewer processes on a 2-core machine: each browser's GPU work and network service run in
  // its browser process, which costs less CPU than passing every frame between processes
  // (docs/testing.md).
  '--in-process-gpu',
  '--enable-features=NetworkServiceInProcess2',
];

/** Nothing listens here: a test that forgets to point Stepwise at a server fails locally. */
export const OFFLINE_BASE_URL = 'http://127.0.0.1:9/v1';

const READY_LINE = /^Stepwise is running at (http:\/\/127\.0\.0\.1:(\d+)\/\?token=(\S+))$/m;
const START_TIMEOUT_MS = 20_000;
const STOP_TIMEOUT_MS = 5_000;

export type Env = Record<string, string | undefined>;

export const SERVE_SCRIPT = path.join(ROOT, 'scripts/serve.mjs');

export interface HostOptions {
  dataDir: string;
  /** Added to the child's environment; `undefined` removes a variable. */
  env?: Env;
  /** Extra command-line arguments after `--port 0 --data-dir <dir>`. */
  args?: string[];
  /** What to run: the built host (default) or SERVE_SCRIPT, exactly as `npm run serve` does. */
  script?: string;
  /** Replaces `--port 0 --data-dir <dir>` (and `args`): the command line exactly as given. */
  rawArgs?: string[];
  /** Run as another user (tests of file permissions, which root would ignore). */
  user?: { uid: number; gid: number };
  /** Benchmarks only (a start is what they measure, on a loaded machine): default 20 s. */
  startTimeoutMs?: number;
}

function commandLine(options: HostOptions): string[] {
  const script = options.script ?? HOST_ENTRY;
  if (!fs.existsSync(script)) throw new Error(`${script} is missing: run \`npm run build\` first.`);
  return [script, ...(options.rawArgs ?? ['--port', '0', '--data-dir', options.dataDir, ...(options.args ?? [])])];
}

export interface HostProcess {
  url: string;
  port: number;
  token: string;
  dataDir: string;
  child: ChildProcess;
  /** Everything the host printed so far. */
  stdout(): string;
  stderr(): string;
  /** SIGTERM, then SIGKILL if it does not exit in time. Resolves with the exit code. */
  stop(): Promise<number | null>;
}

/**
 * The child's environment: the test runner's, minus anything that would point Stepwise at
 * a real server or a real data dir, plus `env`. OPENAI_BASE_URL defaults to OFFLINE_BASE_URL.
 */
export function hostEnv(env: Env = {}): NodeJS.ProcessEnv {
  const clean: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!/^(OPENAI_|STEPWISE_)/.test(key)) clean[key] = value;
  }
  clean.OPENAI_BASE_URL = OFFLINE_BASE_URL;
  for (const [key, value] of Object.entries(env)) {
    if (value === undefined) delete clean[key];
    else clean[key] = value;
  }
  return clean;
}

/** Starts `node out/main/host.js --port 0 --data-dir <dir>` and waits for its address line. */
export function startHostProcess(options: HostOptions): Promise<HostProcess> {
  const child = spawn(process.execPath, commandLine(options), {
    cwd: ROOT,
    env: hostEnv(options.env),
    stdio: ['ignore', 'pipe', 'pipe'],
    ...options.user,
  });
  let out = '';
  let err = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
    const code = await exited;
    clearTimeout(timer);
    return code;
  };

  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop();
      reject(
        new Error(
          `The host did not print its address within ${options.startTimeoutMs ?? START_TIMEOUT_MS} ms.\nstdout: ${out}\nstderr: ${err}`,
        ),
      );
    }, options.startTimeoutMs ?? START_TIMEOUT_MS);
    const onData = () => {
      const match = READY_LINE.exec(out);
      if (!match) return;
      clearTimeout(timer);
      child.stdout!.off('data', onData);
      resolve({
        url: match[1],
        port: Number(match[2]),
        token: match[3],
        dataDir: options.dataDir,
        child,
        stdout: () => out,
        stderr: () => err,
        stop,
      });
    };
    child.stdout!.on('data', onData);
    void exited.then((code) => {
      clearTimeout(timer);
      const how = code === null ? `on signal ${child.signalCode}` : `with code ${code}`;
      reject(new Error(`The host exited ${how} before it was ready.\nstdout: ${out}\nstderr: ${err}`));
    });
  });
}

/** Runs the host to completion (for start-up failures); resolves with its exit and output. */
export function runHostToExit(options: HostOptions): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, commandLine(options), {
    cwd: ROOT,
    env: hostEnv(options.env),
    stdio: ['ignore', 'pipe', 'pipe'],
    ...options.user,
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const timer = setTimeout(() => child.kill('SIGKILL'), START_TIMEOUT_MS);
  return new Promise((resolve) =>
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    }),
  );
}

let shared: Promise<Browser> | null = null;

/**
 * One Chromium for every app of the worker (the e2e files share a worker's modules): each
 * app gets a context of its own, as isolated as a new browser for what the tests read
 * (storage, permissions, pages), without a browser start per file.
 */
export function sharedChromium(): Promise<Browser> {
  const current = shared;
  if (current) {
    return current.then((browser) => {
      if (browser.isConnected()) return browser;
      if (shared === current) shared = null;
      return sharedChromium();
    });
  }
  shared = launchChromium();
  shared.catch(() => (shared = null));
  return shared;
}

export async function launchChromium(): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `Chromium not found at ${CHROMIUM_PATH}. Install Debian's chromium package (.ci/run does) or set STEPWISE_CHROMIUM.`,
    );
  }
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
}

/** A port that was free a moment ago (for tests of fixed-port options). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export function makeDataDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'stepwise-e2e-'));
}

export interface LaunchOptions {
  /** Reuse a data dir (kept on close). Default: a fresh temp dir, removed on close. */
  dataDir?: string;
  env?: Env;
  args?: string[];
  /**
   * Plan review as a user gets it: its default ("Before tools that change things"), which
   * costs nothing until a tool would change something. `false`: off, for tests of tool
   * calls that change things without a plan (their subject is not plan review).
   */
  planReview?: boolean;
  /** What the page reports as the OS theme. Default: light. */
  colorScheme?: 'light' | 'dark';
  viewport?: { width: number; height: number };
  /** The host entry to run (default HOST_ENTRY): a copy of the build serving another renderer. */
  script?: string;
}

export interface App {
  readonly page: Page;
  readonly host: HostProcess;
  readonly url: string;
  readonly dataDir: string;
  readonly browser: Browser;
  readonly context: BrowserContext;
  /** Opens another tab on the running host, ready to use. */
  openPage(): Promise<Page>;
  /** Stops the host, starts a new one on the same data dir, and opens a fresh page on it. */
  /** `crash`: the host is killed (SIGKILL) instead of asked to stop. */
  restart(options?: { env?: Env; args?: string[]; crash?: boolean }): Promise<void>;
  /** Closes the app's browser context and stops the host; removes the data dir unless it was given. */
  close(): Promise<void>;
}

/** Waits until the page is connected and the sidebar is usable. */
export async function waitUntilReady(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'New conversation', exact: true }).waitFor({ state: 'visible' });
  await page.getByText('Connecting to Stepwise…').waitFor({ state: 'hidden' });
}

export async function launchApp(options: LaunchOptions = {}): Promise<App> {
  const ownDir = !options.dataDir;
  const dataDir = options.dataDir ?? makeDataDir();
  let env = options.env;
  let args = options.args;
  let host: HostProcess | null = null;
  let browser: Browser | null = null;
  if (options.planReview === false) seedPlanReviewOff(dataDir);
  try {
    host = await startHostProcess({ dataDir, env, args, script: options.script });
    browser = await sharedChromium();
  } catch (error) {
    await host?.stop();
    if (ownDir) fs.rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  const context = await browser.newContext({
    colorScheme: options.colorScheme ?? 'light',
    viewport: options.viewport ?? { width: 1280, height: 800 },
    // Endless animations (spinners, typing dots) cost Chromium a frame at a time and no
    // test checks motion: the app stops them when less motion is asked for (docs/testing.md).
    reducedMotion: 'reduce',
  });
  const open = async () => {
    const page = await context.newPage();
    await page.goto(host!.url);
    await waitUntilReady(page);
    return page;
  };
  let page = await open();

  return {
    get page() {
      return page;
    },
    get host() {
      return host!;
    },
    get url() {
      return host!.url;
    },
    dataDir,
    browser,
    context,
    openPage: open,
    async restart(next = {}) {
      await page.close();
      if (next.crash) host!.child.kill('SIGKILL');
      const code = await host!.stop();
      if (!next.crash && code !== 0)
        throw new Error(`The host exited with code ${code} when stopped.\nstderr: ${host!.stderr()}`);
      env = next.env ?? env;
      args = next.args ?? args;
      host = await startHostProcess({ dataDir, env, args, script: options.script });
      page = await open();
    },
    async close() {
      await context.close().catch(() => {});
      await host!.stop();
      if (ownDir) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
