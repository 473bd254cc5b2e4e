// What a connection offers besides tools: prompts, resources, resource templates,
// completion, and the roots-changed notification. Each list follows every page.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type {
  CompleteRequest,
  GetPromptResult,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplate,
} from '@modelcontextprotocol/sdk/types.js';

/** At most this many pages of one list: a server that keeps sending cursors does not hold us. */
const MAX_PAGES = 20;

export interface ConnectionFeatures {
  /** What the server declared in its initialize result. */
  offers(): { prompts: boolean; resources: boolean; completions: boolean };
  listPrompts(): Promise<Prompt[]>;
  getPrompt(name: string, args: Record<string, string>): Promise<GetPromptResult>;
  listResources(): Promise<Resource[]>;
  listResourceTemplates(): Promise<ResourceTemplate[]>;
  readResource(uri: string): Promise<ReadResourceResult>;
  complete(params: CompleteRequest['params']): Promise<string[]>;
  /** Tells the server the roots changed (it asks `roots/list` again). */
  rootsChanged(): Promise<void>;
}

async function allPages<T>(page: (cursor: string | undefined) => Promise<{ items: T[]; nextCursor?: string }>) {
  const items: T[] = [];
  let cursor: string | undefined;
  for (let n = 0; n < MAX_PAGES; n++) {
    const next = await page(cursor);
    items.push(...next.items);
    cursor = next.nextCursor;
    if (!cursor) break;
  }
  return items;
}

export function connectionFeatures(client: Client, timeoutMs: number): ConnectionFeatures {
  const options = { timeout: timeoutMs };
  const params = (cursor: string | undefined) => (cursor ? { cursor } : undefined);
  return {
    offers() {
      const caps = client.getServerCapabilities();
      return { prompts: !!caps?.prompts, resources: !!caps?.resources, completions: !!caps?.completions };
    },
    listPrompts: () =>
      allPages(async (cursor) => {
        const page = await client.listPrompts(params(cursor), options);
        return { items: page.prompts, nextCursor: page.nextCursor };
      }),
    getPrompt: (name, args) => client.getPrompt({ name, arguments: args }, options),
    listResources: () =>
      allPages(async (cursor) => {
        const page = await client.listResources(params(cursor), options);
        return { items: page.resources, nextCursor: page.nextCursor };
      }),
    listResourceTemplates: () =>
      allPages(async (cursor) => {
        const page = await client.listResourceTemplates(params(cursor), options);
        return { items: page.resourceTemplates, nextCursor: page.nextCursor };
      }),
    readResource: (uri) => client.readResource({ uri }, options),
    async complete(request) {
      const answer = await client.complete(request, options);
      return answer.completion.values;
    },
    rootsChanged: () => client.sendRootsListChanged(),
  };
}
