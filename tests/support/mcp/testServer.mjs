// A small stdio MCP server for the tests, built on the official SDK: the cases the
// reference servers do not offer on demand (a slow call that reports being cancelled, a
// crash mid-call, a tool list that changes, a 100-character tool name, isError).
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer(
  { name: 'stepwise-test', version: '1.0.0' },
  { instructions: 'Call slow only when the user asks you to wait.', capabilities: { logging: {} } },
);
const LONG_NAME = `long_${'x'.repeat(95)}`;

server.registerTool(
  'slow',
  { description: 'Waits `ms` milliseconds, reporting progress, then answers.', inputSchema: { ms: z.number() } },
  async ({ ms }, extra) => {
    const steps = 4;
    for (let i = 1; i <= steps; i++) {
      if (extra.signal.aborted) break;
      await new Promise((resolve) => setTimeout(resolve, ms / steps));
      if (extra._meta?.progressToken !== undefined) {
        await extra.sendNotification({
          method: 'notifications/progress',
          params: { progressToken: extra._meta.progressToken, progress: i, total: steps, message: `step ${i}` },
        });
      }
    }
    if (extra.signal.aborted) {
      process.stderr.write(`cancelled request ${extra.requestId}\n`);
      return { content: [{ type: 'text', text: 'cancelled' }] };
    }
    return { content: [{ type: 'text', text: `waited ${ms} ms` }] };
  },
);

server.registerTool('crash', { description: 'Exits the server process in the middle of the call.' }, async () => {
  process.stderr.write('about to crash on purpose\n');
  setTimeout(() => process.exit(3), 20);
  return new Promise(() => undefined);
});

server.registerTool(
  'log_flood',
  { description: 'Sends `count` log messages, as fast as it can.', inputSchema: { count: z.number() } },
  async ({ count }) => {
    for (let i = 1; i <= count; i++)
      await server.sendLoggingMessage({ level: 'info', logger: 'flood', data: `line ${i}` });
    return { content: [{ type: 'text', text: `logged ${count} lines` }] };
  },
);

/** A short 440 Hz tone as a 16-bit mono WAV (base64), for audio content. */
function chimeWav() {
  const rate = 8000;
  const samples = rate / 5;
  const wav = Buffer.alloc(44 + samples * 2);
  wav.write('RIFF', 0);
  wav.writeUInt32LE(36 + samples * 2, 4);
  wav.write('WAVEfmt ', 8);
  wav.writeUInt32LE(16, 16);
  wav.writeUInt16LE(1, 20);
  wav.writeUInt16LE(1, 22);
  wav.writeUInt32LE(rate, 24);
  wav.writeUInt32LE(rate * 2, 28);
  wav.writeUInt16LE(2, 32);
  wav.writeUInt16LE(16, 34);
  wav.write('data', 36);
  wav.writeUInt32LE(samples * 2, 40);
  for (let i = 0; i < samples; i++)
    wav.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / rate)), 44 + i * 2);
  return wav.toString('base64');
}

server.registerTool(
  'chime',
  { description: 'Returns a short chime as audio content and as an embedded resource.' },
  async () => {
    const data = chimeWav();
    return {
      content: [
        { type: 'audio', data, mimeType: 'audio/wav' },
        { type: 'resource', resource: { uri: 'test://chime.wav', mimeType: 'audio/wav', blob: data } },
      ],
    };
  },
);

// A prompt that holds a conversation (the assistant has a part): sent as it is, roles kept.
server.registerPrompt('review-dialogue', { description: 'A code review, already under way.' }, async () => ({
  messages: [
    { role: 'user', content: { type: 'text', text: 'Please review my parser.' } },
    { role: 'assistant', content: { type: 'text', text: 'Which language is it written in?' } },
    { role: 'user', content: { type: 'text', text: 'TypeScript, with no dependencies.' } },
  ],
}));

server.registerTool('fail', { description: 'Always reports an error.' }, async () => ({
  isError: true,
  content: [{ type: 'text', text: 'the disk is full' }],
}));

server.registerTool(
  'read_note',
  { description: 'A read-only tool.', annotations: { readOnlyHint: true } },
  async () => ({ content: [{ type: 'text', text: 'note contents' }] }),
);

server.registerTool(LONG_NAME, { description: 'A tool with a 100-character name.' }, async () => ({
  content: [{ type: 'text', text: 'long name ran' }],
}));

server.registerTool(
  'add_tool',
  {
    description: 'Adds a tool named `name` (the server announces tools/list_changed).',
    inputSchema: { name: z.string() },
  },
  async ({ name }) => {
    server.registerTool(name, { description: `Added at run time: ${name}` }, async () => ({
      content: [{ type: 'text', text: `${name} ran` }],
    }));
    return { content: [{ type: 'text', text: `added ${name}` }] };
  },
);

server.registerTool(
  'huge',
  { description: 'Answers with `mb` megabytes of text.', inputSchema: { mb: z.number() } },
  async ({ mb }) => ({ content: [{ type: 'text', text: 'x'.repeat(Math.round(mb * 1024 * 1024)) }] }),
);

server.registerTool(
  'say',
  { description: 'Answers with `text`, as given.', inputSchema: { text: z.string() } },
  async ({ text }) => ({
    content: [{ type: 'text', text }],
  }),
);

server.registerTool('env_secret', { description: 'Says whether TEST_TOKEN is set.' }, async () => ({
  content: [{ type: 'text', text: process.env.TEST_TOKEN ? 'token set' : 'no token' }],
}));

// MANY_TOOLS=n: n more tools, each with a long description (a server with thousands of tools).
for (let i = 0; i < Number(process.env.MANY_TOOLS ?? 0); i++) {
  server.registerTool(
    `bulk_${i}`,
    { description: `Bulk tool number ${i}. ${'It does one small thing among many. '.repeat(8)}` },
    async () => ({
      content: [{ type: 'text', text: `bulk ${i} ran` }],
    }),
  );
}

process.stderr.write(`pid ${process.pid}\n`);
process.stderr.write(`test server ready, token ${process.env.TEST_TOKEN ?? 'none'}\n`);
const transport = new StdioServerTransport();
await server.connect(transport);
// Every cancellation the client sends is named on stderr, for the requests it names.
const receive = transport.onmessage;
transport.onmessage = (message, extra) => {
  if (message.method === 'notifications/cancelled')
    process.stderr.write(`cancellation for request ${message.params?.requestId}\n`);
  receive?.(message, extra);
};
