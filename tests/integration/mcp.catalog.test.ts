// Prompts, resources, resource templates, completion and roots of the reference
// "everything" server, through the contract calls the composer and Settings use.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { everything, mcpCorePerTest } from '../support/mcpFixtures';

const start = mcpCorePerTest('stepwise-mcp-catalog-');

describe('prompts', () => {
  it('lists the prompts with their arguments and returns their messages', async () => {
    const { h } = await start({ everything: everything() });
    const { prompts, problems } = await h.call('mcp:prompts', {});
    expect(problems).toEqual([]);
    const args = prompts.find((p) => p.name === 'args-prompt')!;
    expect(args).toMatchObject({ server: 'everything', title: 'Arguments Prompt', completes: true });
    expect(args.arguments.map((a) => [a.name, a.required])).toEqual([
      ['city', true],
      ['state', false],
    ]);
    expect(args.arguments[0].description).toBe('Name of the city');

    const result = await h.call('mcp:getPrompt', {
      server: 'everything',
      name: 'args-prompt',
      arguments: { city: 'Paris' },
    });
    expect(result).toEqual({ text: "What's weather in Paris?", files: [], notes: [], sendAsGiven: false });
  });

  it('completes an argument, narrowed by the ones already filled in', async () => {
    const { h } = await start({ everything: everything() });
    const ref = { type: 'prompt' as const, name: 'completable-prompt' };
    const department = await h.call('mcp:complete', {
      server: 'everything',
      ref,
      argument: { name: 'department', value: 'Eng' },
    });
    expect(department.values).toEqual(['Engineering']);
    const lead = await h.call('mcp:complete', {
      server: 'everything',
      ref,
      argument: { name: 'name', value: '' },
      context: { department: 'Sales' },
    });
    expect(lead.values).toEqual(['David', 'Eve', 'Frank']);
  });

  it('carries a prompt’s embedded resource as a file', async () => {
    const { h } = await start({ everything: everything() });
    const result = await h.call('mcp:getPrompt', {
      server: 'everything',
      name: 'resource-prompt',
      arguments: { resourceType: 'Blob', resourceId: '2' },
    });
    expect(result.files).toHaveLength(1);
    const [file] = result.files;
    expect(file).toMatchObject({ uri: 'demo://resource/dynamic/blob/2', name: '2', text: null });
    expect(Buffer.from(file.data!, 'base64').toString('utf8')).toMatch(/Resource 2/);
    expect(file.size).toBe(Buffer.from(file.data!, 'base64').length);
  });

  it('says which server failed and what a bad call did', async () => {
    const { h } = await start({ everything: everything() });
    const unknown = await h.callError('mcp:getPrompt', { server: 'nope', name: 'x', arguments: {} });
    expect(unknown).toMatchObject({ code: 'not_found', message: 'MCP server "nope" not found' });
    const refused = await h.callError('mcp:getPrompt', { server: 'everything', name: 'no-such-prompt', arguments: {} });
    expect(refused.code).toBe('unavailable');
    expect(refused.message).toMatch(/^The MCP server "everything" could not give the prompt "no-such-prompt": /);
  });
});

describe('resources', () => {
  it('lists resources and templates and reads text and binary content', async () => {
    const { h } = await start({ everything: everything() });
    const { resources, templates, problems } = await h.call('mcp:resources', {});
    expect(problems).toEqual([]);
    expect(resources.length).toBeGreaterThan(0);
    expect(resources.every((r) => r.server === 'everything')).toBe(true);
    const text = templates.find((t) => t.uriTemplate === 'demo://resource/dynamic/text/{resourceId}')!;
    expect(text).toMatchObject({ variables: ['resourceId'], completes: true });

    const read = await h.call('mcp:readResource', {
      server: 'everything',
      uriTemplate: text.uriTemplate,
      variables: { resourceId: '3' },
    });
    expect(read.contents).toEqual([
      expect.objectContaining({ uri: 'demo://resource/dynamic/text/3', name: '3', mimeType: 'text/plain', data: null }),
    ]);
    expect(read.contents[0].text).toMatch(/Resource 3/);

    const blob = await h.call('mcp:readResource', { server: 'everything', uri: 'demo://resource/dynamic/blob/1' });
    expect(blob.contents[0].text).toBeNull();
    expect(blob.contents[0].size).toBe(Buffer.from(blob.contents[0].data!, 'base64').length);

    const first = resources[0];
    const direct = await h.call('mcp:readResource', { server: 'everything', uri: first.uri });
    expect(direct.contents[0].uri).toBe(first.uri);
  });

  it('completes a template variable', async () => {
    const { h } = await start({ everything: everything() });
    const complete = (value: string) =>
      h.call('mcp:complete', {
        server: 'everything',
        ref: { type: 'resource', uri: 'demo://resource/dynamic/text/{resourceId}' },
        argument: { name: 'resourceId', value },
      });
    // The server accepts (and so suggests) only whole numbers from 1.
    expect((await complete('7')).values).toEqual(['7']);
    expect((await complete('x')).values).toEqual([]);
  });
});

describe('roots', () => {
  it('sends "Folders the tools may use" as roots and tells the server when they change', async () => {
    const { h, server, dataDir } = await start({ everything: everything({ trusted: true }) });
    const folder = path.join(path.dirname(dataDir), 'project');
    fs.mkdirSync(folder);
    const askRoots = async () => {
      server.push(
        { toolCalls: [{ id: 'r', name: 'mcp__everything__get-roots-list', arguments: '{}' }] },
        { text: 'ok' },
      );
      const conversation = await h.newConversation('roots');
      await h.sendAndWait(conversation.id, 'roots?');
      return h.messages(conversation.id).find((m) => m.role === 'tool')!.content;
    };
    expect(await askRoots()).toMatch(/no roots are currently configured/);

    await h.call('settings:update', { patch: { mcpRoots: [folder] } });
    // The server asks roots/list again on the notification and logs what it got.
    await vi.waitFor(async () => {
      const log = await h.call('mcp:log', { name: 'everything' });
      expect(log.entries.map((e) => e.text)).toContain('Roots updated: 1 root(s) received from client');
    });
    const listed = await askRoots();
    expect(listed).toContain(`URI: ${pathToFileURL(folder).href}`);
    expect(listed).toContain('1. project');
  });

  it("sends a sidebar folder's own folders as roots for the conversations in it", async () => {
    const { h, server, dataDir } = await start({ everything: everything({ trusted: true }) });
    const global = path.join(path.dirname(dataDir), 'shared');
    const own = path.join(path.dirname(dataDir), 'client-work');
    await h.call('settings:update', { patch: { mcpRoots: [global] } });
    const folder = await h.call('folders:create', { name: 'Client' });
    expect(await h.call('mcp:setFolderRoots', { folderId: folder.id, paths: [own, own] })).toEqual({ paths: [own] });
    expect(await h.call('mcp:folderRoots', { folderId: folder.id })).toEqual({ paths: [own] });
    const askRoots = async (conversationId: string) => {
      server.push(
        { toolCalls: [{ id: `r-${conversationId}`, name: 'mcp__everything__get-roots-list', arguments: '{}' }] },
        { text: 'ok' },
      );
      await h.sendAndWait(conversationId, 'roots?');
      return h
        .messages(conversationId)
        .filter((m) => m.role === 'tool')
        .at(-1)!.content;
    };
    const inFolder = await h.newConversation('in the folder');
    await h.call('conversations:setFolder', { id: inFolder.id, folderId: folder.id });
    const outside = await h.newConversation('outside');

    const listed = await askRoots(inFolder.id);
    expect(listed).toContain(`URI: ${pathToFileURL(global).href}`);
    expect(listed).toContain(`URI: ${pathToFileURL(own).href}`);
    // Another conversation (in no folder) uses the server: the server is told, asks again and
    // gets the global folder only.
    await askRoots(outside.id);
    await vi.waitFor(async () => {
      const log = await h.call('mcp:log', { name: 'everything' });
      expect(log.entries.map((e) => e.text)).toContain('Roots updated: 1 root(s) received from client');
    });
    const now = await askRoots(outside.id);
    expect(now).toContain(`URI: ${pathToFileURL(global).href}`);
    expect(now).not.toContain(pathToFileURL(own).href);
    const error = await h.callError('mcp:setFolderRoots', { folderId: folder.id, paths: ['relative'] });
    expect(error.message).toMatch(/absolute path/);
  });

  it('refuses a folder that is not an absolute path', async () => {
    const { h } = await start({ everything: everything() });
    const error = await h.callError('settings:update', { patch: { mcpRoots: ['relative/dir'] } });
    expect(error.code).toBe('invalid_request');
    expect(error.message).toMatch(/absolute path/);
  });
});

describe('resources in tool results', () => {
  it('keeps a binary embedded resource for the card and a link that can be read from its server', async () => {
    const { h, server } = await start({ everything: everything({ trusted: true }) });
    server.push(
      {
        toolCalls: [
          {
            id: 'blob',
            name: 'mcp__everything__get-resource-reference',
            arguments: '{"resourceType":"Blob","resourceId":4}',
          },
          { id: 'links', name: 'mcp__everything__get-resource-links', arguments: '{"count":1}' },
        ],
      },
      { text: 'Done.' },
    );
    const conversation = await h.newConversation('results');
    await h.sendAndWait(conversation.id, 'resources');
    const [blob, links] = h.messages(conversation.id).filter((m) => m.role === 'tool');
    expect(blob.content).toMatch(
      /\[Resource demo:\/\/resource\/dynamic\/blob\/4 \(text\/plain, [\d.]+ KB, binary\), offered to the user as a download\]/,
    );

    const embedded = (await h.call('tools:output', { conversationId: conversation.id, toolCallId: 'blob' }))!;
    const [item] = embedded.attachments;
    expect(item).toMatchObject({ uri: 'demo://resource/dynamic/blob/4', kind: 'embedded', text: null });
    expect(Buffer.from(item.data!, 'base64').toString('utf8')).toMatch(/Resource 4/);
    expect(item.size).toBe(Buffer.from(item.data!, 'base64').length);

    expect(links.content).toMatch(/\[Resource link: /);
    const linked = (await h.call('tools:output', { conversationId: conversation.id, toolCallId: 'links' }))!;
    const link = linked.attachments[0];
    expect(link).toMatchObject({ kind: 'link', server: 'everything' });
    const read = await h.call('mcp:readResource', { server: link.server!, uri: link.uri });
    expect(read.contents[0].uri).toBe(link.uri);
  });
});
