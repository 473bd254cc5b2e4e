// Tool rounds end to end: arguments split across chunks, several calls per turn, bad
// calls turned into results the model can act on, the round limit, prompt providers.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../../src/main/core/tools/toolTypes';
import { type ScriptedServer } from '../support/scriptedServer';
import { chatCorePerTest, type ChatHarness } from '../support/chatHarness';

let server: ScriptedServer;
let h: ChatHarness;

chatCorePerTest((s, c) => {
  server = s;
  h = c;
});

describe('a two-round tool conversation', () => {
  it('accumulates split arguments, runs the tools and sends their results back', async () => {
    const seen: Array<{ a: number; b: number; conversationId: string; agentId: string }> = [];
    h.core.tools.register(
      defineTool({
        name: 'add',
        description: 'Adds two numbers',
        parameters: z.object({ a: z.number(), b: z.number() }),
        handler: ({ a, b }, ctx) => {
          seen.push({ a, b, conversationId: ctx.conversationId, agentId: ctx.agentId });
          return String(a + b);
        },
      }),
    );
    server.push(
      {
        text: 'Let me check.',
        toolCalls: [
          { id: 'call_time', name: 'get_current_time', arguments: ['{"time', 'Zone":', ' "UTC"}'] },
          { id: 'call_add', name: 'add', arguments: ['{"a": 2', ', "b"', ': 40}'] },
        ],
        chunkDelayMs: 2,
      },
      { text: ['It is ', 'noon and 2 + 40 = 42.'] },
    );
    const conversation = await h.newConversation('Tools');
    const { status } = await h.sendAndWait(conversation.id, 'What time is it, and what is 2 + 40?');
    expect(status.error).toBeNull();

    expect(seen).toEqual([{ a: 2, b: 40, conversationId: conversation.id, agentId: 'main' }]);
    const stored = h.messages(conversation.id);
    expect(stored.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'tool', 'assistant']);
    expect(stored[1]).toMatchObject({ content: 'Let me check.', status: 'complete' });
    expect(stored[1].toolCalls).toEqual([
      { id: 'call_time', name: 'get_current_time', arguments: '{"timeZone": "UTC"}' },
      { id: 'call_add', name: 'add', arguments: '{"a": 2, "b": 40}' },
    ]);
    expect(stored[2]).toMatchObject({ toolCallId: 'call_time', toolName: 'get_current_time' });
    expect(JSON.parse(stored[2].content)).toMatchObject({ timeZone: 'UTC' });
    expect(stored[3]).toMatchObject({ toolCallId: 'call_add', toolName: 'add', content: '42' });
    expect(stored[4]).toMatchObject({ content: 'It is noon and 2 + 40 = 42.', status: 'complete', toolCalls: null });

    const second = server.streamRequests()[1].body.messages.slice(1);
    expect(second).toEqual([
      { role: 'user', content: 'What time is it, and what is 2 + 40?' },
      {
        role: 'assistant',
        content: 'Let me check.',
        tool_calls: [
          {
            id: 'call_time',
            type: 'function',
            function: { name: 'get_current_time', arguments: '{"timeZone": "UTC"}' },
          },
          { id: 'call_add', type: 'function', function: { name: 'add', arguments: '{"a": 2, "b": 40}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_time', content: stored[2].content },
      { role: 'tool', tool_call_id: 'call_add', content: '42' },
    ]);
    const addTool = server.streamRequests()[0].body.tools?.find((t) => t.function.name === 'add');
    expect(addTool?.function.parameters).toMatchObject({
      type: 'object',
      properties: { a: { type: 'number' }, b: { type: 'number' } },
      required: ['a', 'b'],
    });
  });

  it('turns bad calls into results the model can act on, and the loop goes on', async () => {
    h.core.tools.register(
      defineTool({
        name: 'task_update',
        description: 'Updates a task',
        parameters: z.object({ taskId: z.number() }),
        handler: () => {
          throw new Error('the task list is locked');
        },
      }),
    );
    server.push(
      {
        toolCalls: [
          { id: 'c1', name: 'no_such_tool', arguments: '{}' },
          { id: 'c2', name: 'task_update', arguments: '{"taskId": "seven"}' },
          { id: 'c3', name: 'task_update', arguments: '{"taskId": 7' },
          { id: 'c4', name: 'task_update', arguments: '{"taskId": 7}' },
          { id: 'c5', name: 'get_current_time', arguments: '' },
        ],
      },
      { text: 'Sorry, I could not update it.' },
    );
    const conversation = await h.newConversation('Bad calls');
    const { status } = await h.sendAndWait(conversation.id, 'Update task 7');
    expect(status.error).toBeNull();
    const results = h.messages(conversation.id).filter((m) => m.role === 'tool');
    expect(results.map((r) => r.toolCallId)).toEqual(['c1', 'c2', 'c3', 'c4', 'c5']);
    expect(results[0].content).toMatch(/^Unknown tool "no_such_tool"\. Available tools: .*get_current_time/);
    expect(results[1].content).toBe('Invalid arguments for task_update: taskId must be a number.');
    expect(results[2].content).toMatch(/^Invalid arguments for task_update: the arguments are not valid JSON/);
    expect(results[3].content).toBe('Tool task_update failed: the task list is locked.');
    expect(JSON.parse(results[4].content)).toHaveProperty('iso');
    // The invalid JSON was not sent back as is: the API would reject the request.
    const sent = server.streamRequests()[1].body.messages.find((m) => m.role === 'assistant')!;
    expect(sent.tool_calls?.find((c) => c.id === 'c3')?.function.arguments).toBe('{}');
    expect(h.messages(conversation.id).at(-1)!.content).toBe('Sorry, I could not update it.');
  });
});

describe('the round limit', () => {
  it('stops after maxToolRounds, says so in the chat, and retry continues', async () => {
    await h.call('settings:update', { patch: { maxToolRounds: 2 } });
    const call = () => ({ toolCalls: [{ name: 'get_current_time', arguments: '{}' }] });
    server.push(call(), call(), call(), { text: 'Finally done.' });
    const conversation = await h.newConversation('Rounds');
    const { status } = await h.sendAndWait(conversation.id, 'Loop forever');

    expect(status.error).toMatchObject({ kind: 'rounds', retryable: true });
    expect(status.error!.message).toMatch(/2 tool rounds/);
    expect(server.streamRequests()).toHaveLength(2);
    const stored = h.messages(conversation.id);
    expect(stored.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'tool', 'system']);
    expect(stored.at(-1)!.content).toMatch(/Stopped after 2 tool rounds/);
    // The note is for the user, never for the model.
    const from = h.events.length;
    await h.call('chat:retry', { conversationId: conversation.id });
    const after = await h.waitIdle(conversation.id, from);
    expect(after.error).toBeNull();
    const next = server.streamRequests()[2].body.messages;
    expect(next.some((m) => m.role === 'system' && m.content?.includes('Stopped after'))).toBe(false);
    expect(next.at(-1)).toMatchObject({ role: 'tool' });
    expect(h.messages(conversation.id).map((m) => m.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'assistant',
      'tool',
      'assistant',
      'tool',
      'assistant',
    ]);
    expect(h.messages(conversation.id).at(-1)!.content).toBe('Finally done.');
  });
});

describe('prompt providers and hooks', () => {
  it('asks every provider before every request and tells them the request went out', async () => {
    let round = 0;
    const sent: number[] = [];
    const remove = h.core.prompts.add({
      systemSection: ({ conversationId, agentId }) =>
        `Task list for ${conversationId.slice(0, 8)} (${agentId}), version ${++round}`,
      afterRequest: () => sent.push(round),
    });
    h.core.prompts.add({ systemSection: () => null });
    h.core.prompts.add({
      systemSection: () => {
        throw new Error('broken provider');
      },
    });
    server.push({ toolCalls: [{ name: 'get_current_time', arguments: '{}' }] }, { text: 'Done.' });
    const conversation = await h.newConversation('Prompts');
    await h.sendAndWait(conversation.id, 'Go');
    const systems = server.streamRequests().map((r) => r.body.messages[0].content);
    expect(systems[0]).toContain(`Task list for ${conversation.id.slice(0, 8)} (main), version 1`);
    expect(systems[1]).toContain('version 2');
    expect(sent).toEqual([1, 2]);
    // A broken provider is logged and left out; the chat goes on.
    expect(h.logs.some((l) => l.includes('broken provider'))).toBe(true);
    remove();
    server.push({ text: 'Plain.' });
    await h.sendAndWait(conversation.id, 'Again');
    expect(server.streamRequests().at(-1)!.body.messages[0].content).not.toContain('Task list');
  });

  it('calls turn-end hooks with the outcome', async () => {
    const ends: Array<[string, string]> = [];
    h.core.chat.onTurnEnd('observers', (conversationId, info) => {
      ends.push([conversationId, info.outcome]);
    });
    server.push({ text: 'Hi' });
    const conversation = await h.newConversation('Hooks');
    await h.sendAndWait(conversation.id, 'Hello');
    await expect.poll(() => ends).toEqual([[conversation.id, 'complete']]);
  });

  it('start() runs a loop for another agent and resolves with how it ended', async () => {
    const agents: string[] = [];
    h.core.tools.register(
      defineTool({
        name: 'whoami',
        description: 'Says which agent calls',
        parameters: z.object({}),
        handler: (_args, ctx) => {
          agents.push(ctx.agentId);
          return ctx.agentId;
        },
      }),
    );
    h.core.prompts.add({ systemSection: ({ agentId }) => `You are agent ${agentId}.` });
    server.push({ toolCalls: [{ name: 'whoami', arguments: '' }] }, { text: 'I am worker-1.' });
    const conversation = await h.newConversation();
    h.core.messages.insert({
      conversationId: conversation.id,
      role: 'user',
      content: 'Do the subtask',
      origin: 'worker',
    });
    const info = await h.core.chat.start(conversation.id, 'worker-1');
    expect(info).toEqual({ agentId: 'worker-1', outcome: 'complete', error: null });
    expect(agents).toEqual(['worker-1']);
    expect(server.streamRequests()[0].body.messages[0].content).toContain('You are agent worker-1.');
    // Worker transcripts keep their title: no title request.
    expect(server.chatRequests().filter((r) => !r.body.stream)).toHaveLength(0);
  });

  it('run() keeps the transcript in one conversation while tools and prompts act for another', async () => {
    const seen: Array<[string, string]> = [];
    h.core.tools.register(
      defineTool({
        name: 'where',
        description: 'Says which conversation the tool acts for',
        parameters: z.object({}),
        handler: (_args, ctx) => {
          seen.push([ctx.conversationId, ctx.agentId]);
          return 'ok';
        },
      }),
    );
    const prompted: string[] = [];
    h.core.prompts.add({
      systemSection: ({ conversationId }) => {
        prompted.push(conversationId);
        return null;
      },
    });
    const activity: string[] = [];
    h.core.chat.onActivity(({ agentId, activity: now }) => void activity.push(`${agentId}:${now}`));
    const parent = await h.newConversation('Parent');
    const transcript = await h.newConversation('Worker transcript');
    h.core.messages.insert({ conversationId: transcript.id, role: 'user', content: 'Begin', origin: 'system' });
    server.push({ toolCalls: [{ name: 'where', arguments: '{}' }] }, { text: 'Done.' });

    const outcome = await h.core.chat.run(transcript.id, 'worker-1', parent.id);
    expect(outcome).toEqual({ kind: 'complete' });
    expect(seen).toEqual([[parent.id, 'worker-1']]);
    expect(prompted).toEqual([parent.id, parent.id]);
    expect(activity).toEqual(['worker-1:streaming', 'worker-1:tool', 'worker-1:streaming']);
    expect(h.core.chat.activity(transcript.id)).toBe('idle');
    expect(h.messages(transcript.id).map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(h.messages(parent.id)).toEqual([]);
  });
});
