// `npm run serve` (through start.ts): starts the browser host and prints exactly one line
// with its address.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { defaultDataDir } from '../core/dataDir';
import {
  afterWorker,
  migrateInWorker,
  migrationPending,
  releaseAfterStop,
  type WorkerResult,
} from '../core/db/migrateAside';
import { openDataDir, type DataDirLock } from '../core/storage/openDataDir';
import type { RunningHost } from './server';

declare const __STEPWISE_VERSION__: string;

const USAGE = 'Usage: npm run serve -- [--port <n>] [--data-dir <dir>]';

function fail(message: string): never {
  process.stderr.write(`stepwise: ${message}\n`);
  process.exit(1);
}

/** A mistake on the command line: the message, the usage line, exit code 2, no stack trace. */
function usageError(message: string): never {
  process.stderr.write(`stepwise: ${message}\n${USAGE}\n`);
  process.exit(2);
}

function readArgs() {
  try {
    return parseArgs({
      options: { port: { type: 'string' }, 'data-dir': { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      strict: true,
    }).values;
  } catch (error) {
    // parseArgs' own message names the option, e.g. "Unknown option '--host'".
    const message = (error instanceof Error ? error.message : String(error)).replace(
      / To specify a positional argument.*$/s,
      '',
    );
    return usageError(/[.!?]$/.test(message) ? message : `${message}.`);
  }
}

/** `rendererDir`: the built renderer the host serves; `migrateWorker`: the built out/main/migrate.js. */
export async function main(rendererDir: string, migrateWorker: string) {
  const values = readArgs();
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  const portText = values.port ?? process.env.STEPWISE_PORT ?? '0';
  const port = Number(portText);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    usageError(`--port must be a number from 0 to 65535, not ${portText}`);
  const dataDir = path.resolve(values['data-dir'] ?? process.env.STEPWISE_DATA_DIR ?? defaultDataDir());

  // A stop (Ctrl-C, SIGTERM) counts from the first moment. Until the core is open it stops
  // the update's worker, if one runs; afterwards it closes the host.
  const stopping = new AbortController();
  let stopNow = () => stopping.abort();
  const onStop = () => stopNow();
  process.on('SIGINT', onStop);
  process.on('SIGTERM', onStop);

  let lock;
  try {
    lock = openDataDir(dataDir, 'the browser host');
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error));
  }
  // A database of an older version: the address is printed and its page says "Updating
  // your data…" while a worker migrates; the core opens the updated file afterwards.
  // After an unclean shutdown the worker runs the full integrity check first.
  const migrated = migrationPending(dataDir)
    ? migrateInWorker(dataDir, { file: migrateWorker }, lock.uncleanShutdown, stopping.signal)
    : null;
  const openLock = lock;
  // Stopped during the update: the worker has ended, so the file is closed and whole.
  const stoppedUpdating = (result: WorkerResult): never => {
    process.stderr.write(
      result.error === null
        ? 'stepwise: stopped. Your data was updated.\n'
        : 'stepwise: stopped while updating your data. Nothing was changed; the update runs again at the next start.\n',
    );
    releaseAfterStop(openLock, result);
    process.exit(0);
  };
  // Only then do the core and the server load, while the update runs: nothing of theirs is
  // read before the worker starts (docs/performance.md, issue 39 rounds 8 and 10). One
  // module, so that they load as one graph.
  const runtime = import('./runtime');
  const openCore = async (instanceLock: DataDirLock) =>
    (await runtime).createNodeCore({ dataDir, version: __STEPWISE_VERSION__, instanceLock });
  let host: RunningHost;
  let core;
  if (migrated) {
    const updated = migrated.then((result) =>
      stopping.signal.aborted ? stoppedUpdating(result) : openCore(afterWorker(openLock, result)),
    );
    const { startHost } = await runtime;
    host = await startHost({ core: updated, rendererDir, port }).catch((error: Error) => fail(error.message));
    process.stdout.write(`Stepwise is running at ${host.url}\n`);
    core = await updated.catch((error: unknown) => fail(error instanceof Error ? error.message : String(error)));
  } else {
    try {
      core = await openCore(lock);
    } catch (error) {
      fail(error instanceof Error ? error.message : String(error));
    }
    // Stopped while the core opened (after a crash it checks the whole file first): no
    // address is printed for a host that is already stopping.
    if (stopping.signal.aborted) await core.close().finally(() => process.exit(0));
    const { startHost } = await runtime;
    host = await startHost({ core, rendererDir, port }).catch((error: Error) => fail(error.message));
    process.stdout.write(`Stepwise is running at ${host.url}\n`);
  }
  const running = core;
  stopNow = () => {
    void host
      .close()
      .then(() => running.close())
      .finally(() => process.exit(0));
  };
  if (stopping.signal.aborted) stopNow();
}
