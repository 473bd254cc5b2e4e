// One cold host: opens the data dir, sends one message in `conversationId` (or in a new
// conversation) and prints how long the request took to reach the model and the process's
// peak RSS. Run as a child of bench/importedHistory.bench.ts, so every round starts with
// empty caches (no token counts: as after an import, or a database of an older version).
import { registerRawImports } from '../rawImports';
import { startScriptedServer } from '../../tests/support/scriptedServer';

registerRawImports();
const [dataDir, target, model = 'scripted'] = process.argv.slice(2);
const { createNodeCore } = await import('../../src/main/core/createNodeCore');
const server = await startScriptedServer({ script: (request) => ({ text: request.body.stream ? 'OK' : 'Title' }) });
const core = createNodeCore({
  dataDir,
  env: { OPENAI_BASE_URL: server.baseUrl, OPENAI_API_KEY: 'sk-bench', STEPWISE_MODEL: model },
  chat: { log: () => {} },
});
// As a user would: the app is open a moment (the tokenizer's warm-up has run) before the send.
await new Promise((r) => setTimeout(r, 1000));
const conversationId = target === 'new' ? core.conversations.create('Fresh').id : target;
const start = Date.now();
const sent = await core.dispatch('messages:send', { conversationId, content: 'quick question' });
if (!sent.ok) throw new Error(sent.error.message);
while (server.streamRequests().length === 0) await new Promise((r) => setImmediate(r));
const elapsed = server.streamRequests()[0].at - start;
const peakRss = process.resourceUsage().maxRSS * 1024;
await core.chat.stop(conversationId);
core.close();
await server.close();
process.stdout.write(JSON.stringify({ elapsed, peakRss }));
process.exit(0);
