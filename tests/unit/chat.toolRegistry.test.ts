// The tool registry never throws from `run`: every failure is a result text a model can
// act on. Parameters reach the API as JSON Schema generated from the zod schema.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  CANCELLED_WHILE_RUNNING,
  createToolRegistry,
  describeIssues,
  parseArguments,
} from '../../src/main/core/tools/toolRegistry';
import { currentTimeTool } from '../../src/main/core/tools/builtinTools';
import { defineTool, outcomeOf, toolResult, type ToolContext } from '../../src/main/core/tools/toolTypes';

const ctx = (signal = new AbortController().signal): ToolContext => ({ conversationId: 'c', agentId: 'main', signal });

function registryWithTaskTool(
  handler: (args: { taskId: number; note?: string }) => string | Promise<string> = () => 'ok',
) {
  const registry = createToolRegistry();
  registry.register(
    defineTool({
      name: 'task_update',
      description: 'Updates a task',
      parameters: z.object({ taskId: z.number().int().describe('The task id'), note: z.string().optional() }),
      handler,
    }),
  );
  return registry;
}

describe('register and apiTools', () => {
  it('offers a tool only apps may call to no model, and runs it only for an app', async () => {
    const registry = registryWithTaskTool();
    registry.register(
      defineTool({
        name: 'mcp__maps__refresh',
        description: 'Refreshes the map',
        parameters: z.object({}),
        availableTo: 'apps',
        handler: () => 'refreshed',
      }),
    );
    expect(registry.apiTools()!.map((t) => t.function.name)).toEqual(['task_update']);
    expect(registry.apiTools('worker-1')!.map((t) => t.function.name)).toEqual(['task_update']);
    const byModel = await registry.run('mcp__maps__refresh', '{}', ctx());
    expect(byModel).toMatchObject({
      ok: false,
      content: 'Unknown tool "mcp__maps__refresh". Available tools: task_update.',
    });
    expect(await registry.run('mcp__maps__refresh', '{}', { ...ctx(), fromApp: true })).toMatchObject({
      ok: true,
      content: 'refreshed',
    });
  });

  it('generates the JSON Schema from zod, without $schema', () => {
    const registry = registryWithTaskTool();
    const [tool] = registry.apiTools()!;
    expect(tool.type).toBe('function');
    expect(tool.function.name).toBe('task_update');
    expect(tool.function.description).toBe('Updates a task');
    expect(tool.function.parameters).not.toHaveProperty('$schema');
    expect(tool.function.parameters).toMatchObject({
      type: 'object',
      properties: { taskId: { type: 'integer', description: 'The task id' }, note: { type: 'string' } },
      required: ['taskId'],
    });
  });

  it('offers no tools array when nothing is registered', () => {
    expect(createToolRegistry().apiTools()).toBeUndefined();
  });

  it('refuses duplicate names, bad names and non-object schemas; the remover unregisters', () => {
    const registry = registryWithTaskTool();
    const again = defineTool({ name: 'task_update', description: '', parameters: z.object({}), handler: () => '' });
    expect(() => registry.register(again)).toThrow(/already registered/);
    expect(() => registry.register({ ...again, name: 'has space' })).toThrow(/letters, digits/);
    const scalar = defineTool({ name: 'scalar', description: '', parameters: z.string(), handler: () => '' });
    expect(() => registry.register(scalar)).toThrow(/zod object schema/);
    const remove = registry.register({ ...again, name: 'temp' });
    expect(registry.has('temp')).toBe(true);
    remove();
    expect(registry.list().map((t) => t.name)).toEqual(['task_update']);
  });
});

describe('run', () => {
  it('passes parsed arguments and the context to the handler', async () => {
    const seen: unknown[] = [];
    const registry = registryWithTaskTool((args) => {
      seen.push(args);
      return `updated ${args.taskId}`;
    });
    expect(await registry.run('task_update', '{"taskId": 3, "note": "hi"}', ctx())).toEqual({
      ok: true,
      content: 'updated 3',
    });
    expect(seen).toEqual([{ taskId: 3, note: 'hi' }]);
  });

  it.each([
    ['unknown tool', 'nope', '{}', /^Unknown tool "nope"\. Available tools: task_update\.$/],
    ['wrong type', 'task_update', '{"taskId": "7"}', /^Invalid arguments for task_update: taskId must be a number\.$/],
    ['missing field', 'task_update', '{}', /^Invalid arguments for task_update: taskId is required\.$/],
    ['not JSON', 'task_update', '{"taskId": 7', /^Invalid arguments for task_update: the arguments are not valid JSON/],
    [
      'a JSON array',
      'task_update',
      '[1]',
      /^Invalid arguments for task_update: the arguments must be a JSON object\.$/,
    ],
    ['JSON null', 'task_update', 'null', /must be a JSON object/],
    ['empty string counts as {}', 'task_update', '', /^Invalid arguments for task_update: taskId is required\.$/],
  ])('%s becomes a result the model can act on', async (_case, name, raw, expected) => {
    const result = await registryWithTaskTool().run(name, raw, ctx());
    expect(result.ok).toBe(false);
    expect(result.content).toMatch(expected);
  });

  it('an empty string is valid for a tool without required parameters', async () => {
    const registry = createToolRegistry();
    registry.register(currentTimeTool(() => Date.UTC(2030, 0, 2, 3, 4, 5)));
    const result = await registry.run('get_current_time', '', ctx());
    expect(result.ok).toBe(true);
    expect(JSON.parse(result.content)).toMatchObject({ iso: '2030-01-02T03:04:05.000Z' });
  });

  it('a handler that throws (sync or async) becomes a result', async () => {
    const sync = registryWithTaskTool(() => {
      throw new Error('list is locked');
    });
    expect(await sync.run('task_update', '{"taskId":1}', ctx())).toEqual({
      ok: false,
      content: 'Tool task_update failed: list is locked.',
      outcome: 'error',
    });
    const async_ = registryWithTaskTool(async () => Promise.reject(new Error('disk full')));
    expect((await async_.run('task_update', '{"taskId":1}', ctx())).content).toBe(
      'Tool task_update failed: disk full.',
    );
  });

  it('a bad time zone for get_current_time says what to send instead', async () => {
    const registry = createToolRegistry();
    registry.register(currentTimeTool());
    const result = await registry.run('get_current_time', '{"timeZone":"Mars/Olympus"}', ctx());
    expect(result).toEqual({
      ok: false,
      content:
        'Tool get_current_time failed: unknown time zone "Mars/Olympus"; use an IANA name such as "Europe/Berlin".',
      outcome: 'error',
    });
  });

  it('a stop cancels a handler that ignores its signal', async () => {
    const controller = new AbortController();
    const registry = registryWithTaskTool(() => new Promise<string>(() => {}));
    const pending = registry.run('task_update', '{"taskId":1}', ctx(controller.signal));
    controller.abort();
    expect(await pending).toEqual({ ok: false, content: 'cancelled by user', outcome: 'cancelled' });
    expect(await registry.run('task_update', '{"taskId":1}', ctx(controller.signal))).toEqual({
      ok: false,
      content: 'cancelled by user',
      outcome: 'cancelled',
    });
  });

  it('a stop after the handler said its effect left Stepwise reads "may have run"', async () => {
    const controller = new AbortController();
    const registry = createToolRegistry();
    registry.register(
      defineTool({
        name: 'send_mail',
        description: 'Sends a mail',
        parameters: z.object({}),
        handler: (_args, context) => {
          context.running?.();
          return new Promise<string>(() => {});
        },
      }),
    );
    const pending = registry.run('send_mail', '{}', ctx(controller.signal));
    controller.abort();
    expect(await pending).toEqual({ ok: false, content: CANCELLED_WHILE_RUNNING, outcome: 'cancelled' });
    expect(CANCELLED_WHILE_RUNNING).toMatch(/^cancelled by user while it was running: it may have run\./);
  });
});

describe('outcomes', () => {
  it('a handler says a call was denied, cancelled or failed with toolResult; plain text is ok', async () => {
    for (const outcome of ['denied', 'cancelled', 'error', 'ok'] as const) {
      const registry = createToolRegistry();
      registry.register(
        defineTool({
          name: 'guarded',
          description: 'x',
          parameters: z.object({}),
          handler: () => toolResult(outcome, `said ${outcome}`),
        }),
      );
      const result = await registry.run('guarded', '', ctx());
      expect(result).toEqual({ ok: outcome === 'ok', content: `said ${outcome}`, outcome });
      expect(outcomeOf(result)).toBe(outcome);
    }
    const plain = await registryWithTaskTool().run('task_update', '{"taskId":1}', ctx());
    expect(outcomeOf(plain)).toBe('ok');
    expect(outcomeOf({ ok: false, content: 'failed' })).toBe('error');
  });
});

describe('argument helpers', () => {
  it('parseArguments accepts objects only', () => {
    expect(parseArguments('  ')).toEqual({ ok: true, value: {} });
    expect(parseArguments('{"a":1}')).toEqual({ ok: true, value: { a: 1 } });
    expect(parseArguments('"text"').ok).toBe(false);
  });

  it('describeIssues keeps custom messages and names unknown fields', () => {
    const schema = z.strictObject({
      title: z.string().min(1, { error: 'title must not be empty' }),
      tags: z.array(z.string()),
    });
    const result = schema.safeParse({ title: '', tags: 'x', extra: 1 });
    expect(result.success).toBe(false);
    expect(describeIssues(result.error!)).toBe(
      "title: title must not be empty; tags must be an array; unknown key 'extra'",
    );
  });
});
