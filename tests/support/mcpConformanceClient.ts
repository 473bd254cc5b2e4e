// The client the official MCP conformance runner drives (`@modelcontextprotocol/conformance
// client --command "tsx tests/support/mcpConformanceClient.ts"`): it appends the server URL,
// names the scenario in MCP_CONFORMANCE_SCENARIO and passes scenario data (pre-registered
// client credentials) in MCP_CONFORMANCE_CONTEXT. Everything here is Stepwise's own client
// code: mcp.json parsing, the server lifecycle and connection, the sign-in (with a stand-in
// for the browser that follows the authorization page's redirects back to the loopback),
// tools, and elicitations answered with the form as it opens (its defaults).
import { parseConfig } from '../../src/main/core/mcp/mcpConfig';
import { elicitationForm, elicitationResult } from '../../src/main/core/mcp/mcpElicit';
import { formDefaults } from '../../src/shared/questions';
import { createLoopback } from '../../src/main/core/mcp/mcpLoopback';
import { signInNeededIn } from '../../src/main/core/mcp/mcpOAuth';
import { createOAuthStore } from '../../src/main/core/mcp/mcpOAuthStore';
import { createServer } from '../../src/main/core/mcp/mcpServer';
import { createSignIn } from '../../src/main/core/mcp/mcpSignIn';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';

/** The client ID metadata document the conformance suite's authorization servers accept. */
const CONFORMANCE_CLIENT_METADATA_URL = 'https://conformance-test.local/client-metadata.json';
/** Sign-ins one run may make: the first, and one more for a call that needs a larger scope. */
const MAX_SIGN_INS = 2;

const log = (line: string) => process.stderr.write(`[stepwise] ${line}\n`);

function contextCredentials(): Record<string, string> {
  try {
    const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? 'null') as Record<string, unknown> | null;
    if (context && typeof context.client_id === 'string')
      return {
        clientId: context.client_id,
        ...(typeof context.client_secret === 'string' ? { clientSecret: context.client_secret } : {}),
      };
  } catch {
    // No context: nothing pre-registered.
  }
  return {};
}

/** Arguments a tool's schema accepts: each required property gets a plain value of its type. */
function sampleArguments(tool: Tool): Record<string, unknown> {
  const properties = (tool.inputSchema.properties ?? {}) as Record<string, { type?: string; default?: unknown }>;
  const args: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(properties)) {
    if (schema.default !== undefined) args[name] = schema.default;
    else if (schema.type === 'number' || schema.type === 'integer') args[name] = 1;
    else if (schema.type === 'boolean') args[name] = true;
    else if (schema.type === 'string') args[name] = 'test';
  }
  return args;
}

async function main(url: string) {
  const oauth = contextCredentials();
  const parsed = parseConfig(
    JSON.stringify({ mcpServers: { conformance: { url, ...(oauth.clientId ? { oauth } : {}) } } }),
  );
  if (!parsed.ok) throw new Error(parsed.error);
  const config = parsed.servers[0];

  const store = createOAuthStore(null);
  const listeners = new Set<() => void>();
  const signIn = createSignIn({
    store,
    loopback: createLoopback({ preferredPort: 0 }),
    clientName: 'Stepwise',
    clientMetadataUrl: CONFORMANCE_CLIENT_METADATA_URL,
    changed: () => listeners.forEach((listener) => listener()),
    signedIn: () => undefined,
  });
  const server = createServer(config, {
    version: '0.0.0-conformance',
    connectTimeoutMs: 20_000,
    now: Date.now,
    changed: () => undefined,
    roots: () => [],
    elicit: async (params) => {
      // What the user does who submits the form as it opened.
      log(`elicitation: submitted the form as it opened`);
      return elicitationResult(params, { kind: 'form', values: formDefaults(elicitationForm(params)) });
    },
    pids: new Set(),
    auth: { store, clientName: 'Stepwise', onHints: (hints) => signIn.hints(config.name, hints) },
    signInNeeded: (refusal) => signIn.needed(config.name, refusal.reason),
  });

  let signIns = 0;
  /** The user presses Sign in; the "browser" follows the authorization page back to the loopback. */
  async function signInOnce() {
    if (++signIns > MAX_SIGN_INS) throw new Error(`gave up after ${MAX_SIGN_INS} sign-ins`);
    const settled = new Promise<void>((resolve) => {
      const check = () => {
        if (signIn.status(config).status !== 'waiting') {
          listeners.delete(check);
          resolve();
        }
      };
      listeners.add(check);
    });
    const page = await signIn.start(config);
    if (page) {
      log(`sign-in page: ${page}`);
      const response = await fetch(page);
      log(`the browser ended at ${response.url} (${response.status})`);
      await settled;
    }
    const { status, error } = signIn.status(config);
    if (status === 'failed') throw new Error(error ?? 'sign-in failed');
  }

  /** Runs `step`, signing in when the server asks for it. */
  async function withSignIn<T>(step: () => Promise<T>): Promise<T> {
    for (;;) {
      try {
        return await step();
      } catch (error) {
        if (!signInNeededIn(error)) throw error;
        log(`the server asks for a sign-in: ${signInNeededIn(error)!.message}`);
        await signInOnce();
      }
    }
  }

  try {
    const connection = await withSignIn(() => server.ensure({ ignoreBackoff: true }));
    log(
      `connected; tools: ${
        server
          .tools()
          .map((t) => t.name)
          .join(', ') || 'none'
      }`,
    );
    for (const tool of server.tools()) {
      const result = await withSignIn(async () => {
        const live = await server.ensure({ ignoreBackoff: true });
        return live.callTool(tool.name, sampleArguments(tool), {
          signal: new AbortController().signal,
          timeoutMs: 20_000,
        });
      });
      log(`${tool.name}: ${JSON.stringify(result.content).slice(0, 200)}`);
    }
    void connection;
  } finally {
    signIn.close();
    await server.stop();
  }
}

const url = process.argv[2];
if (!url) {
  process.stderr.write('Usage: tsx tests/support/mcpConformanceClient.ts <server URL>\n');
  process.exit(2);
}
main(url).then(
  () => process.exit(0),
  (error: unknown) => {
    log(`failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
