// The built stdio bridge (out/main/mcp.js, what `npm run -s mcp` runs) as a child process
// spoken to line by line, for tests that need its pid and exit code (signals, stdin close).
import { spawn } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';

const MCP_JS = path.resolve(import.meta.dirname, '../../out/main/mcp.js');

interface Answer {
  id: number;
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
}

export function spawnBridge(dataDir: string) {
  const child = spawn(process.execPath, [MCP_JS, '--data-dir', dataDir], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const waiting = new Map<number, (answer: Answer) => void>();
  readline.createInterface({ input: child.stdout }).on('line', (line) => {
    const message = JSON.parse(line) as Partial<Answer>;
    if (typeof message.id === 'number') waiting.get(message.id)?.(message as Answer);
  });
  let nextId = 1;
  const send = (message: object) => child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);

  function request(method: string, params: object = {}): Promise<Answer> {
    const id = nextId++;
    const answered = new Promise<Answer>((resolve) => waiting.set(id, resolve));
    send({ id, method, params });
    return answered;
  }

  return {
    child,
    exited,
    stderr: () => stderr,
    request,
    /** initialize and initialized, as a client starts. */
    async initialize(name = 'bridge-test'): Promise<Answer> {
      const answer = await request('initialize', {
        protocolVersion: LATEST_PROTOCOL_VERSION,
        capabilities: {},
        clientInfo: { name, version: '1.0.0' },
      });
      send({ method: 'notifications/initialized' });
      return answer;
    },
    /** A tool call's text (and whether it is an error), or the JSON-RPC error. */
    async callTool(name: string, args: object): Promise<Answer> {
      return request('tools/call', { name, arguments: args });
    },
  };
}

export type Bridge = ReturnType<typeof spawnBridge>;

export const toolText = (answer: Answer): string =>
  ((answer.result?.content as Array<{ text?: string }> | undefined)?.[0]?.text ?? '') as string;
