// An MCP Apps server whose app asks the host for what the reference app does not
// (tests/e2e/mcp.apps.test.ts): full screen (`ui/request-display-mode`), a model-context
// update (`ui/update-model-context`), a call of a tool only the app may call, and a call of
// a tool only the model may call. It writes each answer into its own page.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

const URI = 'ui://features/app.html';
const MIME = 'text/html;profile=mcp-app';
let refreshes = 0;

const APP = `<!doctype html><html><head><title>Features</title></head><body>
<button id="full">Full screen</button>
<button id="inline">Back inline</button>
<button id="context">Share context</button>
<button id="app-tool">Call app tool</button>
<button id="model-tool">Call model tool</button>
<ul aria-label="Answers"></ul><script>
const list = document.querySelector('ul');
const report = (text) => { const li = document.createElement('li'); li.textContent = text; list.append(li); };
let id = 0;
const pending = new Map();
const request = (method, params) => new Promise((resolve) => { id++; pending.set(id, resolve); window.parent.postMessage({ jsonrpc: '2.0', id, method, params }, '*'); });
window.addEventListener('message', (event) => {
  if (event.source !== window.parent) return;
  const data = event.data;
  if (data && data.id !== undefined && pending.has(data.id)) { pending.get(data.id)(data); pending.delete(data.id); }
});
const textOf = (answer) => answer.result ? (answer.result.content || []).map((c) => c.text).join(' ') : 'error ' + (answer.error && answer.error.message);
const mode = async (wanted) => { const answer = await request('ui/request-display-mode', { mode: wanted }); report('mode: ' + (answer.result ? answer.result.mode : 'error')); };
document.getElementById('full').onclick = () => mode('fullscreen');
document.getElementById('inline').onclick = () => mode('inline');
document.getElementById('context').onclick = async () => {
  const answer = await request('ui/update-model-context', { content: [{ type: 'text', text: 'The user picked Lisbon on the map.' }] });
  report('context: ' + (answer.error ? 'error' : 'kept'));
};
document.getElementById('app-tool').onclick = async () => report('app tool: ' + textOf(await request('tools/call', { name: 'refresh', arguments: {} })));
document.getElementById('model-tool').onclick = async () => report('model tool: ' + textOf(await request('tools/call', { name: 'summary', arguments: {} })));
(async () => {
  const init = await request('ui/initialize', { appInfo: { name: 'features', version: '1' }, appCapabilities: { availableDisplayModes: ['inline', 'fullscreen'] }, protocolVersion: '2026-01-26' });
  const caps = init.result ? init.result.hostCapabilities : {};
  report('host modes: ' + (init.result ? init.result.hostContext.availableDisplayModes.join(',') : 'none'));
  report('host accepts: ' + ['message', 'updateModelContext'].filter((k) => caps[k]).join(','));
  window.parent.postMessage({ jsonrpc: '2.0', method: 'ui/notifications/initialized', params: {} }, '*');
})();
</script></body></html>`;

const server = new McpServer({ name: 'app-features', version: '1.0.0' });
server.registerTool('map', { description: 'Shows a map.', _meta: { ui: { resourceUri: URI } } }, async () => ({
  content: [{ type: 'text', text: 'map shown' }],
}));
server.registerTool(
  'refresh',
  { description: 'Refreshes the map; for the app only.', _meta: { ui: { resourceUri: URI, visibility: ['app'] } } },
  async () => {
    refreshes++;
    return { content: [{ type: 'text', text: `refreshed ${refreshes} times` }] };
  },
);
server.registerTool(
  'summary',
  { description: 'Summarizes the map; for the model only.', _meta: { ui: { visibility: ['model'] } } },
  async () => ({ content: [{ type: 'text', text: 'summary ran' }] }),
);
server.registerResource('app', URI, { mimeType: MIME }, async () => ({
  contents: [{ uri: URI, mimeType: MIME, text: APP }],
}));
await server.connect(new StdioServerTransport());
