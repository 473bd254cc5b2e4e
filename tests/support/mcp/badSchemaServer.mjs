// A stdio MCP server (the SDK's low-level Server) listing one good tool and one whose
// inputSchema is invalid (`required: 5`), as a careless server might.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const server = new Server({ name: 'bad-schema', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: [
    { name: 'good', description: 'Works.', inputSchema: { type: 'object', properties: {} } },
    { name: 'broken', description: 'Its schema is wrong.', inputSchema: { type: 'object', required: 5 } },
  ],
}));
server.setRequestHandler(CallToolRequestSchema, async (request) => ({
  content: [{ type: 'text', text: `${request.params.name} ran` }],
}));
await server.connect(new StdioServerTransport());
