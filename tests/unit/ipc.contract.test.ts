// The IPC contract as main enforces it: every call in src/shared/ipc.ts rejects malformed
// payloads with a clear error before any handler runs, unknown methods are refused, and
// main keeps serving afterwards. Events are validated on the way out. The loops run over
// `callNames` and `eventNames`, so calls added later are covered without editing this file.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { callNames, calls, eventNames, type CallName } from '../../src/shared/ipc';
import { AppError, createDispatcher, type Handlers } from '../../src/main/core/ipc/dispatcher';
import { createEventBus } from '../../src/main/core/ipc/eventBus';
import { DisposableStore, liveListeners } from '../../src/shared/event';
import { createNodeCore } from '../../src/main/core/createNodeCore';
import { makeTempDir, removeDir } from '../support/tempDir';

// Nothing listens on port 9: if a payload ever slipped through to an LLM handler, it
// would fail locally instead of calling the internet.
const OFFLINE_ENV = { OPENAI_BASE_URL: 'http://127.0.0.1:9/v1', OPENAI_API_KEY: 'sk-offline' };

let dir: string;
let core: ReturnType<typeof createNodeCore>;

beforeAll(() => {
  dir = makeTempDir();
  core = createNodeCore({ dataDir: dir, env: OFFLINE_ENV });
});

afterAll(() => {
  core.close();
  removeDir(dir);
});

const NOT_OBJECTS: unknown[] = [42, 'text', true, [], [{ id: 1 }]];
const WRONG_VALUES: unknown[] = [
  { nested: true },
  12345,
  'not the right thing',
  false,
  [],
  -1.5,
  null,
  'x'.repeat(600_000),
];

function shapeOf(name: CallName): Record<string, z.ZodType> | null {
  const request = calls[name].request as unknown as { shape?: Record<string, z.ZodType> };
  return request.shape ?? null;
}

/** For each field of a call's request, values of a type that field rejects. */
function wrongValuesFor(field: z.ZodType): unknown[] {
  return WRONG_VALUES.filter((candidate) => !field.safeParse(candidate).success);
}

async function expectInvalid(name: unknown, params: unknown) {
  const result = await core.dispatch(name, params);
  expect(result.ok, `${String(name)} accepted ${JSON.stringify(params)?.slice(0, 80)}`).toBe(false);
  if (result.ok) throw new Error('unreachable');
  expect(result.error.code).toBe('invalid_request');
  expect(result.error.message.startsWith(`Invalid request for ${String(name)}: `)).toBe(true);
  return result.error.message;
}

describe('every call rejects malformed payloads through core.dispatch', () => {
  it('the contract lists calls and events', () => {
    expect(callNames.length).toBeGreaterThan(10);
    expect(eventNames.length).toBeGreaterThan(3);
  });

  it.each(callNames)('%s: non-object payloads', async (name) => {
    for (const params of NOT_OBJECTS) {
      const message = await expectInvalid(name, params);
      expect(message).toMatch(/expected object/i);
    }
  });

  it.each(callNames)('%s: unknown keys', async (name) => {
    const message = await expectInvalid(name, { unexpectedKey: 1 });
    expect(message).toContain('unexpectedKey');
  });

  it.each(callNames)('%s: each field with a value of the wrong type', async (name) => {
    const shape = shapeOf(name);
    expect(shape, `${name} should take an object`).not.toBeNull();
    for (const [key, field] of Object.entries(shape!)) {
      const wrong = wrongValuesFor(field);
      expect(wrong.length, `no wrong value found for ${name}.${key}`).toBeGreaterThan(0);
      for (const bad of wrong) {
        const message = await expectInvalid(name, { [key]: bad });
        // The message names the field, e.g. "title: title must be text".
        expect(message, `${name}.${key} = ${JSON.stringify(bad)?.slice(0, 40)}`).toMatch(
          new RegExp(`(: |; )${key}[:.]`),
        );
      }
    }
  });

  it('gives messages a person can act on', async () => {
    expect(await expectInvalid('conversations:rename', { id: 'nope', title: '   ' })).toBe(
      'Invalid request for conversations:rename: id: conversation id must be a UUID; title: title must not be empty',
    );
    expect(await expectInvalid('conversations:list', { limit: 5000 })).toMatch(/limit: .*1000/);
    expect(await expectInvalid('settings:update', { patch: { theme: 'neon' } })).toMatch(/patch\.theme: /);
  });

  it('refuses unknown methods, including names inherited from Object', async () => {
    for (const method of [
      'conversations:explode',
      '',
      'toString',
      '__proto__',
      'constructor',
      42,
      null,
      undefined,
      { method: 'x' },
    ]) {
      const result = await core.dispatch(method, {});
      expect(result).toEqual({
        ok: false,
        error: { code: 'unknown_method', message: expect.stringMatching(/^Unknown call /) },
      });
    }
  });

  it('keeps serving after all of that', async () => {
    const created = await core.dispatch('conversations:create', { title: '  Still here  ' });
    expect(created).toMatchObject({ ok: true, value: { title: 'Still here', titleSource: 'user' } });
    const listed = await core.dispatch('conversations:list', {});
    expect(listed).toMatchObject({ ok: true, value: { total: 1 } });
  });
});

describe('dispatcher', () => {
  function recordingHandlers(onCall: (name: string) => unknown): Handlers {
    return new Proxy({} as Handlers, {
      get: (_target, name) => () => onCall(String(name)),
    });
  }

  it('never runs a handler for a payload that fails validation', async () => {
    const called: string[] = [];
    const dispatch = createDispatcher(recordingHandlers((name) => called.push(name)));
    for (const name of callNames) {
      await dispatch(name, 'not an object');
      await dispatch(name, { unexpectedKey: true });
    }
    expect(called).toEqual([]);
  });

  it('turns a failing handler into an error result instead of throwing', async () => {
    const logged: string[] = [];
    const dispatch = createDispatcher(
      recordingHandlers((name) => {
        if (name === 'tasks:get') throw new AppError('not_found', 'Conversation x not found');
        throw new TypeError('boom');
      }),
      (line) => logged.push(line),
    );
    expect(await dispatch('app:info', {})).toEqual({
      ok: false,
      error: { code: 'internal', message: 'app:info failed: boom' },
    });
    expect(logged[0]).toMatch(/app:info failed: TypeError: boom/);
    expect(await dispatch('tasks:get', { conversationId: '00000000-0000-4000-8000-000000000000' })).toEqual({
      ok: false,
      error: { code: 'not_found', message: 'Conversation x not found' },
    });
  });

  it('refuses to send a response that breaks the contract', async () => {
    const dispatch = createDispatcher(
      recordingHandlers(() => ({ version: 1 })),
      () => {},
    );
    const result = await dispatch('app:info', {});
    expect(result).toMatchObject({ ok: false, error: { code: 'internal' } });
  });
});

describe('conversation calls', () => {
  const missing = '00000000-0000-4000-8000-000000000000';

  it('report a missing conversation as not_found', async () => {
    for (const [name, params] of [
      ['conversations:get', { id: missing }],
      ['conversations:rename', { id: missing, title: 'x' }],
      ['conversations:setPinned', { id: missing, pinned: true }],
      ['conversations:delete', { id: missing }],
      ['messages:list', { conversationId: missing }],
    ] as const) {
      expect(await core.dispatch(name, params)).toEqual({
        ok: false,
        error: { code: 'not_found', message: `Conversation ${missing} not found` },
      });
    }
  });

  it('push a conversations:changed event for create, rename, pin and delete', async () => {
    const seen: Array<{ kind: string; title?: string; pinned?: boolean }> = [];
    const stop = core.bus.subscribe((event, payload) => {
      if (event !== 'conversations:changed') return;
      const change = payload as { kind: string; conversation: { title: string; pinned: boolean } | null };
      seen.push({ kind: change.kind, title: change.conversation?.title, pinned: change.conversation?.pinned });
    });
    try {
      const created = await core.dispatch('conversations:create', {});
      if (!created.ok) throw new Error(created.error.message);
      const id = (created.value as { id: string }).id;
      await core.dispatch('conversations:rename', { id, title: 'Renamed' });
      await core.dispatch('conversations:setPinned', { id, pinned: true });
      expect(await core.dispatch('conversations:delete', { id })).toEqual({ ok: true, value: { id } });
      expect(seen).toEqual([
        { kind: 'created', title: 'New conversation', pinned: false },
        { kind: 'updated', title: 'Renamed', pinned: false },
        { kind: 'updated', title: 'Renamed', pinned: true },
        { kind: 'deleted', title: undefined, pinned: undefined },
      ]);
    } finally {
      stop.dispose();
    }
  });
});

describe('events', () => {
  it.each(eventNames)('%s: emit throws on a malformed payload and nothing is delivered', (name) => {
    const bus = createEventBus();
    const delivered: unknown[] = [];
    bus.subscribe((_event, payload) => delivered.push(payload));
    for (const bad of [42, 'text', null, {}, [{ unexpected: true }]]) {
      expect(() => bus.emit(name, bad as never), `${name} accepted ${JSON.stringify(bad)}`).toThrow();
    }
    expect(delivered).toEqual([]);
  });

  it('delivers valid payloads to every subscriber, and one failing listener does not stop the others', () => {
    const bus = createEventBus();
    const got: string[] = [];
    const stopFailing = bus.subscribe(() => {
      throw new Error('listener bug');
    });
    const stop = bus.subscribe((event, payload) => got.push(`${event} ${JSON.stringify(payload)}`));
    const quiet = console.error;
    console.error = () => {};
    try {
      bus.emit('app:command', { command: 'new-conversation' });
      bus.emit('notices:changed', []);
    } finally {
      console.error = quiet;
    }
    stop.dispose();
    stopFailing.dispose();
    bus.emit('notices:changed', []);
    expect(got).toEqual(['app:command {"command":"new-conversation"}', 'notices:changed []']);
  });

  it('gives a typed listener only its own event, after the failing one, until it unsubscribes', () => {
    const bus = createEventBus();
    const commands: string[] = [];
    const stopFailing = bus.on('app:command', () => {
      throw new Error('listener bug');
    });
    const stop = bus.on('app:command', ({ command }) => commands.push(command));
    const quiet = console.error;
    console.error = () => {};
    try {
      bus.emit('notices:changed', []);
      bus.emit('app:command', { command: 'new-conversation' });
    } finally {
      console.error = quiet;
    }
    stop.dispose();
    stopFailing.dispose();
    bus.emit('app:command', { command: 'open-settings' });
    expect(commands).toEqual(['new-conversation']);
  });

  it('releases every listener when disposed, and listeners added to a store go with the store', () => {
    const before = liveListeners();
    const bus = createEventBus();
    const store = new DisposableStore();
    const commands: string[] = [];
    bus.on('app:command', ({ command }) => commands.push(command), store);
    bus.subscribe(() => {});
    expect(liveListeners()).toBe(before + 2);
    store.dispose();
    bus.emit('app:command', { command: 'new-conversation' });
    expect(commands).toEqual([]);
    expect(liveListeners()).toBe(before + 1);
    bus.dispose();
    expect(liveListeners()).toBe(before);
    bus.on('app:command', ({ command }) => commands.push(command));
    bus.emit('app:command', { command: 'open-settings' });
    expect(commands).toEqual([]);
    expect(liveListeners()).toBe(before);
  });
});
