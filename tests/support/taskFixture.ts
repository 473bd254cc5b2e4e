// A real SQLite database with the task service, the task tools in a real tool registry
// and a recording event bus: what task tests need without the chat engine.
import { openDatabase, type Db } from '../../src/main/core/db/openDatabase';
import { createEventBus } from '../../src/main/core/ipc/eventBus';
import { createConversationRepo } from '../../src/main/core/conversations/conversationRepo';
import { createMessageRepo } from '../../src/main/core/conversations/messageRepo';
import { createTaskService } from '../../src/main/core/tasks/taskService';
import { createTaskTools } from '../../src/main/core/tasks/taskTools';
import { createToolRegistry } from '../../src/main/core/tools/toolRegistry';
import type { EventName } from '../../src/shared/ipc';
import { afterEach, beforeEach } from 'vitest';
import { makeTempDir, removeDir } from './tempDir';

export interface RecordedEvent {
  event: EventName;
  payload: unknown;
}

export function createTaskFixture(dataDir: string) {
  const { db } = openDatabase(dataDir);
  const bus = createEventBus();
  const events: RecordedEvent[] = [];
  bus.subscribe((event, payload) => events.push({ event, payload }));
  let clock = 1_700_000_000_000;
  const now = () => (clock += 1000);
  const conversations = createConversationRepo(db, now);
  const messages = createMessageRepo(db, now);
  const tasks = createTaskService({ db, bus, now });
  conversations.setTaskBadgeLookup((ids) => tasks.badges(ids));
  const registry = createToolRegistry();
  for (const tool of createTaskTools(tasks)) registry.register(tool);
  const conversation = conversations.create('Tasks under test');

  return {
    db,
    bus,
    events,
    conversations,
    messages,
    tasks,
    registry,
    conversationId: conversation.id,
    /** Runs a tool the way the agent loop does: raw argument text through the registry. */
    async call(name: string, args: unknown, agentId = 'main', conversationId = conversation.id) {
      const raw = typeof args === 'string' ? args : JSON.stringify(args);
      return registry.run(name, raw, { conversationId, agentId, signal: new AbortController().signal });
    },
    /** The result text of a granular call, parsed. */
    async callJson(name: string, args: unknown, agentId = 'main') {
      const result = await this.call(name, args, agentId);
      return JSON.parse(result.content) as Record<string, unknown> & { ok: boolean; error?: string };
    },
    list(conversationId = conversation.id) {
      return tasks.get(conversationId);
    },
    /** Stores a message as the engine would (a new user message starts a new turn). */
    say(role: 'user' | 'assistant', content = role === 'user' ? 'Please continue.' : 'Working on it.') {
      return messages.insert({ conversationId: conversation.id, role, content });
    },
    tasksChanged() {
      return events
        .filter((e) => e.event === 'tasks:changed')
        .map((e) => e.payload as { conversationId: string; list: unknown });
    },
    close() {
      db.close();
    },
  };
}

export type TaskFixture = ReturnType<typeof createTaskFixture>;

/**
 * A fresh fixture in its own data dir for every test of the file (or of the describe block
 * it is called in), closed and removed after each. Use it like the fixture itself: `f.call(…)`.
 */
export function taskFixturePerTest(): TaskFixture & { readonly dir: string } {
  let current: (TaskFixture & { dir: string }) | null = null;
  beforeEach(() => {
    const dir = makeTempDir();
    current = Object.assign(createTaskFixture(dir), { dir });
  });
  afterEach(() => {
    current?.close();
    if (current) removeDir(current.dir);
    current = null;
  });
  return new Proxy({} as TaskFixture & { dir: string }, {
    get(_target, key) {
      if (!current) throw new Error('the task fixture exists only inside a test');
      return Reflect.get(current, key, current);
    },
  });
}

/** Every row of the task tables, for "nothing was written" comparisons. */
export function dumpTaskTables(db: Db): Record<string, unknown[]> {
  const out: Record<string, unknown[]> = {};
  for (const table of ['task_lists', 'tasks', 'task_deps', 'task_events', 'task_notice_marks']) {
    out[table] = db.prepare(`SELECT * FROM ${table} ORDER BY rowid`).all();
  }
  return out;
}
