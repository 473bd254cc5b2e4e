// The browser host run from source in a child process (through tsx), for crash tests that
// kill it with SIGKILL: integration tests need no build. `?raw` imports load as vite's do,
// and the version vite would define is set before the host's modules load.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { registerRawImports } from '../../bench/rawImports';

registerRawImports();
Object.assign(globalThis, { __STEPWISE_VERSION__: '0.0.0-test' });
// The page is never opened here: an empty renderer is enough.
const rendererDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stepwise-renderer-'));
fs.writeFileSync(path.join(rendererDir, 'index.html'), '<!doctype html><title>Stepwise</title>');
process.on('exit', () => fs.rmSync(rendererDir, { recursive: true, force: true }));
const { main } = await import('../../src/main/host/main');
// The migration worker from source: it inherits this process's `--import tsx`.
await main(rendererDir, fileURLToPath(new URL('../../src/main/core/db/migrateWorker.ts', import.meta.url)));
