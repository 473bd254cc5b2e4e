// One cold host: opens the data dir, sends one message in `conversationId` (or in a new
// conversation) and prints how long the request took to reach the model and the process's
// peak RSS. Run as a child of bench/importedHistory.bench.ts, so every round starts with
// empty caches (no token counts in memory: as after an import, a database of an older
// version, or a restart, whose counts are then read from the messages table). With
// `twice`, a second send in the same conversation follows the first reply: the warm send.
import { registerRawImports } from '../rawImports';
import { startScriptedServer } from '../../tests/support/scriptedServer';

registerRawImports();
const [dataDir, target, model = 'scripted', twice] = process.argv.slice(2);
const { createNodeCore } = await import('../../src/main/core/createNodeCore');
/** When each streamed request reached the model, on this process's clock (sub-millisecond). */
const arrivals: number[] = [];
const server = await startScriptedServer({
  script: (request) => {
    if (request.body.stream) arrivals.push(performance.now());
    return { text: request.body.stream ? 'OK' : 'Title' };
  },
});
const core = createNodeCore({
  dataDir,
  env: { OPENAI_BASE_URL: server.baseUrl, OPENAI_API_KEY: 'sk-bench', STEPWISE_MODEL: model },
  chat: { log: () => {} },
});
// As a user would: the app is open a few seconds (the warm-ups after start-up have run: they
// start 1 s after start-up; 1.5 s was not enough on a loaded machine), and the
// page shows the conversation (its calls on opening one) before the send.
await new Promise((r) => setTimeout(r, 3000));
const conversationId = target === 'new' ? core.conversations.create('Fresh').id : target;
for (const [call, params] of [
  ['conversations:get', { id: conversationId }],
  ['messages:list', { conversationId, limit: 100 }],
] as const) {
  const opened = await core.dispatch(call, params);
  if (!opened.ok) throw new Error(opened.error.message);
}
/** Send → the reply's request at the model, in ms. */
async function send(content: string): Promise<number> {
  const requests = arrivals.length;
  const start = performance.now();
  const sent = await core.dispatch('messages:send', { conversationId, content });
  if (!sent.ok) throw new Error(sent.error.message);
  while (arrivals.length === requests) await new Promise((r) => setImmediate(r));
  return arrivals[requests] - start;
}
const elapsed = await send('quick question');
const peakRss = process.resourceUsage().maxRSS * 1024;
let warm: number | null = null;
if (twice === 'twice') {
  while (core.chat.status(conversationId).running) await new Promise((r) => setTimeout(r, 5));
  warm = await send('and another one');
}
await core.chat.stop(conversationId);
core.close();
await server.close();
process.stdout.write(JSON.stringify({ elapsed, peakRss, warm }));
process.exit(0);
