// A server that floods its log (issue 35, "Log floods"): the test server sends 100,000 log
// messages as fast as it can (`log_flood`), well past the 10,000 a second, while
// `mcp:get` is asked every 10 ms. The row is the longest a request waited past its due
// time; the floor is the same requests for as long with the host idle. The log costs a
// bounded buffer (the last 500 lines) and nothing is pushed to the page per line, so the
// difference is the SDK reading and checking each message on the main thread. (The server
// is marked read-only so that plan review, on by default, lets the call run.)
import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';
import { registerRawImports } from './rawImports';
import { ms, type Bench, type BenchRow } from './benchKit';

const LINES = Number(process.env.STEPWISE_BENCH_LOG_LINES ?? 100_000);
const TEST_SERVER = path.join(import.meta.dirname, '../tests/support/mcp/testServer.mjs');

const bench: Bench = {
  title: 'The slowest mcp:get answer while an MCP server floods its log',
  async run() {
    registerRawImports();
    const { createNodeCore } = await import('../src/main/core/createNodeCore');
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'stepwise-bench-logflood-'));
    const dataDir = path.join(root, 'data');
    fs.mkdirSync(dataDir, { recursive: true });
    fs.writeFileSync(
      path.join(dataDir, 'mcp.json'),
      JSON.stringify({
        mcpServers: { test: { command: process.execPath, args: [TEST_SERVER], trusted: true, readOnly: true } },
      }),
    );
    const core = createNodeCore({ dataDir, env: {}, chat: { log: () => {} } });

    /** Runs `work` while asking mcp:get every 10 ms; the longest wait past a request's due time. */
    async function whilePinging(work: () => Promise<unknown>): Promise<{ worst: number; answers: number }> {
      let worst = 0;
      let answers = 0;
      let done = false;
      const pinging = (async () => {
        while (!done) {
          const due = performance.now() + 10;
          await new Promise((r) => setTimeout(r, 10));
          const state = await core.dispatch('mcp:get', {});
          if (!state.ok) throw new Error(state.error.message);
          worst = Math.max(worst, performance.now() - due);
          answers++;
        }
      })();
      try {
        await work();
      } finally {
        done = true;
        await pinging;
      }
      return { worst, answers };
    }

    try {
      const conversation = core.conversations.create('bench');
      const ctx = { conversationId: conversation.id, agentId: 'main', signal: new AbortController().signal };
      await core.tools.prepare(ctx);
      const started = performance.now();
      const flood = await whilePinging(async () => {
        const result = await core.tools.run('mcp__test__log_flood', JSON.stringify({ count: LINES }), ctx);
        if (!result.ok) throw new Error(result.content);
      });
      const seconds = (performance.now() - started) / 1000;
      const idle = await whilePinging(() => new Promise((r) => setTimeout(r, seconds * 1000)));
      const log = await core.dispatch('mcp:log', { name: 'test' });
      const kept = log.ok ? (log.value as { entries: unknown[] }).entries.length : 0;
      const rows: BenchRow[] = [
        {
          measure: `${LINES.toLocaleString('en-US')} log lines as fast as the server sends them`,
          value: `${seconds.toFixed(1)} s (${Math.round(LINES / seconds).toLocaleString('en-US')} lines/s)`,
          note: `kept: ${kept}`,
        },
        {
          measure: 'longest mcp:get wait past its due time during the flood',
          value: ms(flood.worst),
          note: `${flood.answers} answers`,
        },
        {
          measure: 'the same requests for as long, host idle (floor)',
          value: ms(idle.worst),
          note: `${idle.answers} answers`,
        },
      ];
      return rows;
    } finally {
      await core.close();
      fs.rmSync(root, { recursive: true, force: true });
    }
  },
};

export default bench;
