// MCP: (1) a tool call through Stepwise (registry, approval rules, SDK client, result
// conversion) against the floor, a bare SDK client calling the same tool of the same
// server program, interleaved for 30 rounds (goal ≤ 1.2× + 2 ms); (2) server
// start-to-ready (spawn, initialize, tools/list) through Stepwise and through the bare SDK.
import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { registerRawImports } from './rawImports';
import { ms, percentile, type Bench, type BenchRow } from './benchKit';

const ROUNDS = 30;
const STARTS = 6;
const here = import.meta.dirname;
const EVERYTHING = path.join(here, '../node_modules/@modelcontextprotocol/server-everything/dist/index.js');

const median = (samples: number[]) => percentile(samples, 50);
const min = (samples: number[]) => Math.min(...samples);

async function bareClient(): Promise<{ client: Client; close: () => Promise<void> }> {
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({ command: process.execPath, args: [EVERYTHING, 'stdio'], stderr: 'ignore' }),
  );
  await client.listTools();
  return { client, close: () => client.close() };
}

async function withCore<T>(run: (core: Awaited<ReturnType<typeof makeCore>>) => Promise<T>): Promise<T> {
  const core = await makeCore();
  try {
    return await run(core);
  } finally {
    await core.close();
    fs.rmSync(core.root, { recursive: true, force: true });
  }
}

async function makeCore() {
  registerRawImports();
  const { createNodeCore } = await import('../src/main/core/createNodeCore');
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'stepwise-bench-mcp-'));
  const dataDir = path.join(root, 'data');
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(
    path.join(dataDir, 'mcp.json'),
    JSON.stringify({
      mcpServers: { everything: { command: process.execPath, args: [EVERYTHING, 'stdio'], trusted: true } },
    }),
  );
  const core = createNodeCore({ dataDir, env: {}, chat: { log: () => {} } });
  return Object.assign(core, { root });
}

async function callOverhead(): Promise<BenchRow[]> {
  return withCore(async (core) => {
    const conversation = core.conversations.create('bench');
    const ctx = { conversationId: conversation.id, agentId: 'main', signal: new AbortController().signal };
    await core.tools.prepare(ctx);
    const bare = await bareClient();
    try {
      const args = { message: 'benchmark' };
      const viaStepwise = async () => {
        const result = await core.tools.run('mcp__everything__echo', JSON.stringify(args), ctx);
        if (!result.ok) throw new Error(result.content);
      };
      const viaSdk = async () => {
        await bare.client.callTool({ name: 'echo', arguments: args });
      };
      for (let i = 0; i < 5; i++) {
        await viaStepwise();
        await viaSdk();
      }
      const a: number[] = [];
      const b: number[] = [];
      for (let i = 0; i < ROUNDS; i++) {
        // Interleaved, alternating which goes first, so drift hits both alike.
        const order = i % 2 ? [viaSdk, viaStepwise] : [viaStepwise, viaSdk];
        for (const fn of order) {
          const start = performance.now();
          await fn();
          (fn === viaStepwise ? a : b).push(performance.now() - start);
        }
      }
      const goal = 1.2 * median(b) + 2;
      return [
        { measure: `echo via Stepwise (${ROUNDS} rounds)`, median: ms(median(a)), min: ms(min(a)), note: '' },
        { measure: 'echo via bare SDK client (floor)', median: ms(median(b)), min: ms(min(b)), note: '' },
        {
          measure: 'ratio Stepwise / floor',
          median: `${(median(a) / median(b)).toFixed(2)}×`,
          min: `${(min(a) / min(b)).toFixed(2)}×`,
          note: `goal ≤ 1.2× + 2 ms = ${ms(goal)}: ${median(a) <= goal ? 'met' : 'NOT met'}`,
        },
      ];
    } finally {
      await bare.close();
    }
  });
}

async function startToReady(): Promise<BenchRow[]> {
  return withCore(async (core) => {
    const server = core.mcp.server('everything')!;
    const a: number[] = [];
    const b: number[] = [];
    for (let i = 0; i < STARTS; i++) {
      await server.stop();
      let start = performance.now();
      await server.ensure();
      a.push(performance.now() - start);
      start = performance.now();
      const bare = await bareClient();
      b.push(performance.now() - start);
      await bare.close();
    }
    return [
      {
        measure: `everything server start → ready via Stepwise (${STARTS} starts)`,
        median: ms(median(a)),
        min: ms(min(a)),
        note: 'spawn + initialize + tools/list',
      },
      {
        measure: 'everything server start → ready via bare SDK (floor)',
        median: ms(median(b)),
        min: ms(min(b)),
        note: `ratio ${(median(a) / median(b)).toFixed(2)}×`,
      },
    ];
  });
}

const bench: Bench = {
  title: 'MCP tool calls and server start',
  run: async () => [...(await callOverhead()), ...(await startToReady())],
};

export default bench;
