// `npm run serve`: starts the browser host and prints exactly one line with its address.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { createNodeCore } from '../core/createNodeCore';
import { defaultDataDir } from '../core/dataDir';
import { startHost } from './server';

declare const __STEPWISE_VERSION__: string;

function fail(message: string): never {
  process.stderr.write(`stepwise: ${message}\n`);
  process.exit(1);
}

async function main() {
  const { values } = parseArgs({
    options: { port: { type: 'string' }, 'data-dir': { type: 'string' } },
    strict: true,
  });
  const portText = values.port ?? process.env.STEPWISE_PORT ?? '0';
  const port = Number(portText);
  if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`--port must be a number from 0 to 65535, not ${portText}`);
  const dataDir = path.resolve(values['data-dir'] ?? process.env.STEPWISE_DATA_DIR ?? defaultDataDir());
  const rendererDir = fileURLToPath(new URL('../renderer', import.meta.url));

  let core;
  try {
    core = createNodeCore({ dataDir, version: __STEPWISE_VERSION__ });
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error));
  }
  const host = await startHost({ core, rendererDir, port }).catch((error: Error) => fail(error.message));
  process.stdout.write(`Stepwise is running at ${host.url}\n`);

  const stop = () => {
    void host
      .close()
      .then(() => core.close())
      .finally(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

void main();
