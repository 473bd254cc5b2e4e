// The composer's view of what servers offer besides tools: prompts for "/", resources and
// resource templates for "@", completion of their arguments, and reads. Lists start the
// enabled servers that are not running (as a conversation's first request does); a server
// that fails is named in `problems` and the others still answer.
import type { GetPromptResult, ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import { ATTACHMENT_FILE_MAX, sizeOverLimit } from '../../../shared/attachments';
import type {
  GivenMessage,
  McpContent,
  McpPrompt,
  McpResource,
  McpResourceTemplate,
  McpSendPromptRequest,
} from '../../../shared/mcpCatalog';
import { AppError } from '../ipc/dispatcher';
import type { HandlersFor } from '../../../shared/contract';
import type { mcpCatalogCalls } from '../../../shared/mcpCatalogContract';
import type { Connection } from './mcpConnection';
import { message, type McpServer } from './mcpServer';

type Problem = { server: string; message: string };
/** Suggestions shown for one argument (the protocol allows 100). */
const COMPLETION_MAX = 100;

export interface CatalogDeps {
  servers(): Iterable<McpServer>;
  must(name: string): McpServer;
  /** Stores messages given whole into a conversation (started when `create` is given); the model answers a last user message. */
  sendGiven?(
    conversationId: string,
    given: GivenMessage[],
    create?: NonNullable<McpSendPromptRequest['newConversation']>,
  ): void;
}

/** A file name for content at `uri`: its last path segment, else the whole URI made safe. */
export function nameFromUri(uri: string): string {
  const last = uri.split(/[?#]/)[0].split('/').filter(Boolean).pop() ?? '';
  let name = last;
  try {
    name = decodeURIComponent(last);
  } catch {
    // Not percent-encoded text: keep it as it is.
  }
  const safe = name.replace(/[/\\\0]/g, '_').trim() || uri.replace(/[^\w.-]+/g, '_');
  return safe.slice(0, 255) || 'resource';
}

function byteSize(base64: string): number {
  const padding = base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((base64.length * 3) / 4) - padding);
}

/** One content item as the composer takes it; refused over the attachment limit, with its size. */
export function contentOf(item: { uri: string; mimeType?: string; text?: string; blob?: string }): McpContent {
  const name = nameFromUri(item.uri);
  const text = typeof item.text === 'string' ? item.text : null;
  const data = text === null && typeof item.blob === 'string' ? item.blob : null;
  const size = text !== null ? Buffer.byteLength(text, 'utf8') : data !== null ? byteSize(data) : 0;
  if (size > ATTACHMENT_FILE_MAX) {
    const over = sizeOverLimit(size, ATTACHMENT_FILE_MAX);
    throw new AppError('invalid_request', `${name} is ${over.size}; files can be at most ${over.limit}.`);
  }
  return { uri: item.uri, name, mimeType: item.mimeType ?? null, text, data, size };
}

/** A prompt's messages → the composer's text and files; what cannot be carried is a note. */
export function promptContent(result: GetPromptResult) {
  const texts: string[] = [];
  const files: McpContent[] = [];
  const notes: string[] = [];
  for (const { content } of result.messages) {
    switch (content.type) {
      case 'text':
        texts.push(content.text);
        break;
      case 'image':
        files.push(
          contentOf({ uri: `image.${content.mimeType.split('/')[1] ?? 'bin'}`, ...content, blob: content.data }),
        );
        break;
      case 'resource':
        files.push(contentOf(content.resource));
        break;
      case 'resource_link':
        texts.push(`${content.name} <${content.uri}>`);
        break;
      default:
        notes.push(`The prompt also has ${content.type} content, which a message cannot carry; it was left out.`);
    }
  }
  const sendAsGiven = result.messages.some((m) => m.role === 'assistant');
  return { text: texts.join('\n\n'), files, notes, sendAsGiven };
}

/**
 * A prompt's messages as given, roles kept (a prompt that holds a conversation): text, links
 * and embedded text as each message's text; what a stored message cannot carry (images,
 * binary files, audio) is named in the notes.
 */
export function givenMessages(result: GetPromptResult): { given: GivenMessage[]; notes: string[] } {
  const given: GivenMessage[] = [];
  const notes: string[] = [];
  for (const { role, content } of result.messages) {
    let text: string | null = null;
    if (content.type === 'text') text = content.text;
    else if (content.type === 'resource_link') text = `${content.name} <${content.uri}>`;
    else if (content.type === 'resource' && 'text' in content.resource && typeof content.resource.text === 'string')
      text = `[Resource ${content.resource.uri}]\n${content.resource.text}`;
    else notes.push(`The prompt also has ${content.type} content in a message sent as it is; it was left out.`);
    if (text === null || !text.trim()) continue;
    // Consecutive blocks of one speaker are one message, as the prompt reads.
    const last = given.at(-1);
    if (last && last.role === role) last.content += `\n\n${text}`;
    else given.push({ role, content: text });
  }
  return { given, notes };
}

function readContents(result: ReadResourceResult): McpContent[] {
  return result.contents.map((item) => contentOf(item));
}

export function mcpCatalog(deps: CatalogDeps) {
  /** Every enabled server's live connection, started if needed; failures become problems. */
  async function live(): Promise<{ connections: Array<[string, Connection]>; problems: Problem[] }> {
    const enabled = [...deps.servers()].filter((s) => s.config.enabled);
    const problems: Problem[] = [];
    const connections: Array<[string, Connection]> = [];
    await Promise.all(
      enabled.map(async (server) => {
        try {
          connections.push([server.config.name, await server.ensure()]);
        } catch (error) {
          problems.push({ server: server.config.name, message: message(error) });
        }
      }),
    );
    const order = enabled.map((s) => s.config.name);
    connections.sort((a, b) => order.indexOf(a[0]) - order.indexOf(b[0]));
    return { connections, problems };
  }

  async function connection(name: string): Promise<Connection> {
    const server = deps.must(name);
    if (!server.config.enabled) throw new AppError('conflict', `MCP server "${name}" is disabled. Enable it first.`);
    try {
      return await server.ensure();
    } catch (error) {
      throw new AppError('unavailable', message(error));
    }
  }

  /** A server's answer as an error the user can read (the server named). */
  async function asking<T>(server: string, what: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      if (error instanceof AppError) throw error;
      throw new AppError('unavailable', `The MCP server "${server}" could not ${what}: ${message(error)}`);
    }
  }

  const handlers: HandlersFor<typeof mcpCatalogCalls> = {
    'mcp:prompts': async () => {
      const { connections, problems } = await live();
      const prompts: McpPrompt[] = [];
      await Promise.all(
        connections.map(async ([server, conn]) => {
          const offers = conn.features.offers();
          if (!offers.prompts) return;
          try {
            for (const p of await conn.features.listPrompts())
              prompts.push({
                server,
                name: p.name,
                title: p.title ?? null,
                description: p.description ?? null,
                arguments: (p.arguments ?? []).map((a) => ({
                  name: a.name,
                  title: (a as { title?: string }).title ?? null,
                  description: a.description ?? null,
                  required: a.required === true,
                })),
                completes: offers.completions,
              });
          } catch (error) {
            problems.push({ server, message: `listing its prompts failed: ${message(error)}` });
          }
        }),
      );
      return { prompts: inServerOrder(prompts, connections), problems };
    },
    'mcp:getPrompt': async ({ server, name, arguments: args }) => {
      const conn = await connection(server);
      return asking(server, `give the prompt "${name}"`, async () =>
        promptContent(await conn.features.getPrompt(name, args)),
      );
    },
    'mcp:sendPrompt': async ({ conversationId, newConversation, server, name, arguments: args }) => {
      const conn = await connection(server);
      const { given, notes } = await asking(server, `give the prompt "${name}"`, async () =>
        givenMessages(await conn.features.getPrompt(name, args)),
      );
      if (!given.length) throw new AppError('invalid_request', `The prompt "${name}" has no text to send.`);
      if (!deps.sendGiven) throw new AppError('unavailable', 'Prompts cannot be sent here.');
      deps.sendGiven(conversationId, given, newConversation);
      return { notes };
    },
    'mcp:resources': async () => {
      const { connections, problems } = await live();
      const resources: McpResource[] = [];
      const templates: McpResourceTemplate[] = [];
      const { UriTemplate } = await import('@modelcontextprotocol/sdk/shared/uriTemplate.js');
      await Promise.all(
        connections.map(async ([server, conn]) => {
          const offers = conn.features.offers();
          if (!offers.resources) return;
          try {
            const [listed, listedTemplates] = await Promise.all([
              conn.features.listResources(),
              conn.features.listResourceTemplates().catch(() => []),
            ]);
            for (const r of listed)
              resources.push({
                server,
                uri: r.uri,
                name: r.name,
                title: r.title ?? null,
                description: r.description ?? null,
                mimeType: r.mimeType ?? null,
              });
            for (const t of listedTemplates) {
              let variables: string[] = [];
              try {
                variables = new UriTemplate(t.uriTemplate).variableNames;
              } catch {
                continue;
              }
              templates.push({
                server,
                uriTemplate: t.uriTemplate,
                name: t.name,
                title: t.title ?? null,
                description: t.description ?? null,
                mimeType: t.mimeType ?? null,
                variables,
                completes: offers.completions,
              });
            }
          } catch (error) {
            problems.push({ server, message: `listing its resources failed: ${message(error)}` });
          }
        }),
      );
      return {
        resources: inServerOrder(resources, connections),
        templates: inServerOrder(templates, connections),
        problems,
      };
    },
    'mcp:readResource': async (request) => {
      const conn = await connection(request.server);
      let uri: string;
      if (request.uri !== undefined) uri = request.uri;
      else {
        const { UriTemplate } = await import('@modelcontextprotocol/sdk/shared/uriTemplate.js');
        try {
          uri = new UriTemplate(request.uriTemplate ?? '').expand(request.variables ?? {});
        } catch (error) {
          throw new AppError('invalid_request', `The resource template could not be filled in: ${message(error)}`);
        }
      }
      return asking(request.server, `read ${uri}`, async () => ({
        contents: readContents(await conn.features.readResource(uri)),
      }));
    },
    'mcp:complete': async ({ server, ref, argument, context }) => {
      const conn = await connection(server);
      if (!conn.features.offers().completions) return { values: [] };
      const values = await asking(server, `suggest values for ${argument.name}`, () =>
        conn.features.complete({
          ref: ref.type === 'prompt' ? { type: 'ref/prompt', name: ref.name } : { type: 'ref/resource', uri: ref.uri },
          argument,
          context: { arguments: context },
        }),
      );
      return { values: values.slice(0, COMPLETION_MAX) };
    },
  };
  return handlers;
}

/** Items grouped by server in the order of `mcp.json` (they arrive as each server answers). */
function inServerOrder<T extends { server: string }>(items: T[], connections: Array<[string, Connection]>): T[] {
  const order = connections.map(([name]) => name);
  return items
    .map((item, index) => ({ item, index }))
    .sort((a, b) => order.indexOf(a.item.server) - order.indexOf(b.item.server) || a.index - b.index)
    .map(({ item }) => item);
}
