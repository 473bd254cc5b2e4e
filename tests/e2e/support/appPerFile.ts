// The lifecycle most e2e files share, registered once: before the file's tests, a scripted
// model server (optional) and the app pointed at it; after each test, a screenshot and the
// host's stderr if it failed; after the file, app and server closed.
//
//   const turns = turnQueue({ title: () => 'Thirty steps' });
//   const { app, server } = appPerFile({ name: 'layout', server: { script: turns.script } });
//   it('…', async () => { await app.page.getByRole(…); server.streamRequests(); });
//
// `app` and `server` are usable in tests and hooks (not at the file's top level): they
// stand for the ones started in beforeAll, and say so plainly when used too early.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { createNodeCore } from '../../../src/main/core/createNodeCore';
import { startAutopilotServer, type AutopilotServer } from '../../support/autopilotServer';
import { startScriptedServer, type ScriptedServer, type ScriptedServerOptions } from '../../support/scriptedServer';
import { launchApp, makeDataDir, type App, type Env, type LaunchOptions } from './app';
import { reportFailure } from './chatScript';

export type LaunchSettings = Omit<LaunchOptions, 'env'>;
type NodeCore = ReturnType<typeof createNodeCore>;

export interface AppPerFileOptions {
  /** Failure screenshots are saved as /tmp/stepwise-e2e/failed-<name>-<test>.png. */
  name: string;
  /**
   * The model: options for startScriptedServer, or a function that starts one (e.g. the
   * autopilot server's). The app then gets OPENAI_BASE_URL (the server), OPENAI_API_KEY
   * 'sk-test' and STEPWISE_MODEL 'scripted'. Without it the app runs offline.
   */
  server?: ScriptedServerOptions | (() => Promise<ScriptedServer>);
  /** Added to (or, with `undefined`, removed from) the app's environment. */
  env?: Env;
  /**
   * Fills a fresh data dir through a real core (closed before the app starts on that dir,
   * removed after the file). For anything else a data dir needs, use `prepare`.
   */
  seed?: (core: NodeCore) => unknown;
  /** Runs first (write a config, make a dir…); what it returns goes to launchApp. */
  prepare?: () => LaunchSettings | void | Promise<LaunchSettings | void>;
  /** Runs once the page is ready, still in beforeAll (grant permissions, open a conversation…). */
  ready?: (app: App) => unknown;
  /** Runs in afterAll before the app and server close (release gates, close clients). */
  beforeClose?: () => unknown;
  /** Runs in afterAll after they closed (remove the directories `prepare` made). */
  afterClose?: () => unknown;
}

export function appPerFile(options: AppPerFileOptions): { app: App; server: ScriptedServer } {
  let app: App | undefined;
  let server: ScriptedServer | undefined;
  let seeded: string | undefined;

  beforeAll(async () => {
    const launch = (await options.prepare?.()) ?? {};
    if (options.seed) {
      seeded = makeDataDir();
      launch.dataDir = path.join(seeded, 'data');
      const core = createNodeCore({ dataDir: launch.dataDir, env: {} });
      try {
        await options.seed(core);
      } finally {
        await core.close();
      }
    }
    if (typeof options.server === 'function') server = await options.server();
    else if (options.server) server = await startScriptedServer(options.server);
    const model: Env = server
      ? { OPENAI_BASE_URL: server.baseUrl, OPENAI_API_KEY: 'sk-test', STEPWISE_MODEL: 'scripted' }
      : {};
    app = await launchApp({ ...launch, env: { ...model, ...options.env } });
    await options.ready?.(app);
  });

  afterEach(async (context) => reportFailure(app, options.name, context));

  afterAll(async () => {
    await options.beforeClose?.();
    await app?.close();
    await server?.close();
    if (seeded) fs.rmSync(seeded, { recursive: true, force: true });
    await options.afterClose?.();
  });

  return { app: lateApp(() => app), server: lateServer(() => server) };
}

/** appPerFile with the autopilot server (tests/support/autopilotServer.ts) as the model. */
export function autopilotAppPerFile(options: Omit<AppPerFileOptions, 'server'>): { app: App; s: AutopilotServer } {
  let current: AutopilotServer | undefined;
  const { app } = appPerFile({ ...options, server: async () => (current = await startAutopilotServer()).server });
  const s = () => started(current, 'autopilot server');
  return {
    app,
    s: {
      get server() {
        return s().server;
      },
      get model() {
        return s().model;
      },
      get assessor() {
        return s().assessor;
      },
      assessorRequests: () => s().assessorRequests(),
      modelRequests: () => s().modelRequests(),
      close: () => s().close(),
    },
  };
}

function started<T>(value: T | undefined, what: string): T {
  if (value === undefined)
    throw new Error(`The ${what} is not started yet: use it inside a test or hook, not at the top level of the file.`);
  return value;
}

function lateApp(get: () => App | undefined): App {
  const app = () => started(get(), 'app');
  return {
    get page() {
      return app().page;
    },
    get host() {
      return app().host;
    },
    get url() {
      return app().url;
    },
    get dataDir() {
      return app().dataDir;
    },
    get browser() {
      return app().browser;
    },
    get context() {
      return app().context;
    },
    openPage: () => app().openPage(),
    restart: (next) => app().restart(next),
    close: () => app().close(),
  };
}

function lateServer(get: () => ScriptedServer | undefined): ScriptedServer {
  const server = () => started(get(), 'scripted server (pass `server` to appPerFile)');
  return {
    get baseUrl() {
      return server().baseUrl;
    },
    get port() {
      return server().port;
    },
    get requests() {
      return server().requests;
    },
    chatRequests: () => server().chatRequests(),
    streamRequests: () => server().streamRequests(),
    push: (...turns) => server().push(...turns),
    setScript: (script) => server().setScript(script),
    waitForChatRequests: (count) => server().waitForChatRequests(count),
    close: () => server().close(),
  };
}
