// Entry point of `npm run -s mcp` (built to out/main/mcp.js; scripts/mcp.mjs runs it).
// Standard output carries only MCP messages; anything else goes to standard error.
import path from 'node:path';
import { defaultDataDir } from '../core/dataDir';
import { runMcpStdio } from './mcpStdio';

declare const __STEPWISE_VERSION__: string;

const at = process.argv.indexOf('--data-dir');
const dataDir = path.resolve(
  at >= 0 && process.argv[at + 1] ? process.argv[at + 1] : (process.env.STEPWISE_DATA_DIR ?? defaultDataDir()),
);

runMcpStdio({ dataDir, version: __STEPWISE_VERSION__, stderr: (text) => process.stderr.write(text) }).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`stepwise mcp: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
