// Profiling aid for the tiny-delta row of ui.bench.ts: one host core streams 20,000
// deltas of 7 characters from the scripted server, alternating with the openai SDK alone
// on the same stream, and prints both medians. Run it under `node --cpu-prof` to see
// where the host's per-delta time goes (docs/performance.md lists the top items).
import OpenAI from 'openai';
import { registerRawImports } from '../rawImports';
import { startScriptedServer } from '../../tests/support/scriptedServer';
import { makeTempDir } from '../../tests/support/tempDir';
import { interleave } from '../benchKit';

registerRawImports();
const DELTAS = 20_000;
const reply = `${'Tokens '.repeat(DELTAS - 4)}\n\nEND`.padEnd(DELTAS * 7, ' ');
const { createNodeCore } = await import('../../src/main/core/createNodeCore');
const server = await startScriptedServer({
  script: (request) => (request.body.stream ? { text: reply, chunkSize: 7 } : { text: 'Title' }),
});
const core = createNodeCore({
  dataDir: `${makeTempDir('stepwise-tiny-')}/data`,
  env: { OPENAI_BASE_URL: server.baseUrl, OPENAI_API_KEY: 'sk-bench', STEPWISE_MODEL: 'scripted' },
  chat: { log: () => {} },
});
// What the browser host would send over its socket: every event JSON-encoded.
let sent = 0;
core.bus.subscribe((event, payload) => {
  sent += JSON.stringify({ event, payload }).length;
});
const openai = new OpenAI({ baseURL: server.baseUrl, apiKey: 'x', maxRetries: 0 });
const result = await interleave(
  {
    host: async () => {
      const { id } = core.conversations.create('Tiny');
      const done = new Promise<void>((resolve) => {
        const off = core.bus.subscribe((event, payload) => {
          if (event === 'chat:status' && (payload as { running: boolean }).running === false) {
            off.dispose();
            resolve();
          }
        });
      });
      await core.dispatch('messages:send', { conversationId: id, content: 'go' });
      await done;
    },
    sdk: async () => {
      const stream = await openai.chat.completions.create({
        model: 'scripted',
        stream: true,
        messages: [{ role: 'user', content: 'go' }],
      });
      let text = '';
      for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
    },
  },
  { rounds: Number(process.env.STEPWISE_BENCH_ROUNDS ?? 10) },
);
console.log(
  JSON.stringify({
    host: result.host,
    sdk: result.sdk,
    ratio: result.host.median / result.sdk.median,
    sentBytes: sent,
  }),
);
core.close();
await server.close();
process.exit(0);
