import fs from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Task, TaskList } from '../../src/shared/tasks';
import type { TaskToolStyle } from '../../src/shared/settings';
import {
  describeUserChanges,
  renderTaskListBlock,
  createTaskPromptProvider,
} from '../../src/main/core/tasks/taskPrompt';
import { guidanceFor } from '../../src/main/core/tasks/taskPlanning';
import { createTaskTools, FULL_LIST_TOOLS, GRANULAR_TOOLS } from '../../src/main/core/tasks/taskTools';
import { USER } from '../../src/main/core/tasks/taskService';
import { reorderOp, userAddOp, userUpdateOp, deleteOp } from '../../src/main/core/tasks/taskOps';
import type { EventRow } from '../../src/main/core/tasks/taskTypes';
import { taskFixturePerTest } from '../support/taskFixture';

const task = (id: number, status: Task['status'], title: string, extra: Partial<Task> = {}): Task => ({
  id,
  title,
  description: '',
  activeForm: '',
  status,
  owner: 'main',
  position: id - 1,
  blockedBy: [],
  openBlockers: [],
  createdAt: 1,
  updatedAt: 1,
  completedAt: null,
  lastMessageId: null,
  ...extra,
});
const list = (tasks: Task[]): TaskList => ({
  id: 1,
  conversationId: '00000000-0000-4000-8000-000000000000',
  createdAt: 1,
  closedAt: null,
  tasks,
});

describe('the <taskList> block', () => {
  it.each([
    {
      name: 'the example from the issue',
      tasks: [
        task(1, 'completed', 'Set up project structure'),
        task(2, 'in_progress', 'Create data models', { activeForm: 'Creating data models' }),
        task(3, 'pending', 'Build UI widget', { blockedBy: [2], openBlockers: [2] }),
      ],
      block: `<taskList>
- [completed] (1) Set up project structure
- [in_progress] (2) Create data models — Creating data models
- [pending] (3) Build UI widget [blocked by 2]
Progress: 1/3 completed
</taskList>`,
    },
    {
      name: 'cancelled tasks, a completed blocker, a worker and activeForm only while in progress',
      tasks: [
        task(1, 'completed', 'Fetch data', { activeForm: 'Fetching data' }),
        task(2, 'in_progress', 'Parse data', { owner: 'worker-1' }),
        task(3, 'pending', 'Chart it', { blockedBy: [1], openBlockers: [] }),
        task(4, 'cancelled', 'Print it'),
        task(5, 'pending', 'Write summary', { blockedBy: [2, 3], openBlockers: [2, 3] }),
      ],
      block: `<taskList>
- [completed] (1) Fetch data
- [in_progress] (2) Parse data [owner: worker-1]
- [pending] (3) Chart it
- [cancelled] (4) Print it
- [pending] (5) Write summary [blocked by 2, 3]
Progress: 1/4 completed, 1 cancelled
</taskList>`,
    },
  ])('$name', ({ tasks, block }) => {
    expect(renderTaskListBlock(list(tasks))).toBe(block);
  });

  it('is absent without an open list', () => {
    expect(renderTaskListBlock(null)).toBeNull();
    expect(renderTaskListBlock(list([]))).toBeNull();
  });
});

let nextEvent = 1;
const ev = (kind: string, before: unknown, after: unknown, actor = 'user', listId = 1): EventRow => ({
  id: nextEvent++,
  list_id: listId,
  task_id: 1,
  at: 0,
  actor,
  kind,
  before: before === null ? null : JSON.stringify(before),
  after: after === null ? null : JSON.stringify(after),
});

describe('the user-change line', () => {
  it.each([
    {
      name: 'the example from the issue',
      events: [
        ev('updated', { id: 3, status: 'pending' }, { id: 3, status: 'completed' }),
        ev('updated', { id: 4, title: 'A' }, { id: 4, title: 'B' }),
      ],
      line: 'The user marked task 3 completed and renamed task 4.',
    },
    {
      name: 'nothing from the user',
      events: [ev('updated', { id: 3, status: 'pending' }, { id: 3, status: 'completed' }, 'model')],
      line: null,
    },
    {
      name: 'a change undone is no change',
      events: [
        ev('updated', { id: 3, status: 'pending' }, { id: 3, status: 'completed' }),
        ev('updated', { id: 3, status: 'completed' }, { id: 3, status: 'pending' }),
      ],
      line: null,
    },
    {
      name: 'same change on two tasks',
      events: [
        ev('updated', { id: 2, status: 'completed' }, { id: 2, status: 'pending' }),
        ev('updated', { id: 5, status: 'completed' }, { id: 5, status: 'pending' }),
      ],
      line: 'The user marked tasks 2 and 5 pending.',
    },
    {
      name: 'in progress reads naturally',
      events: [ev('updated', { id: 2, status: 'pending' }, { id: 2, status: 'in_progress' })],
      line: 'The user marked task 2 in progress.',
    },
    {
      name: 'added, deleted, reordered',
      events: [
        ev('created', null, { id: 6, title: 'New' }),
        ev('deleted', { id: 2, title: 'Old' }, null),
        ev('reordered', [1, 3], [3, 1]),
      ],
      line: 'The user added task 6, deleted task 2 and reordered the tasks.',
    },
    {
      name: 'added then deleted is nothing',
      events: [ev('created', null, { id: 6, title: 'New' }), ev('deleted', { id: 6, title: 'New' }, null)],
      line: null,
    },
    {
      name: 'cleared',
      events: [
        ev('updated', { id: 3, status: 'pending' }, { id: 3, status: 'completed' }),
        ev('closed', null, { reason: 'clear-tasks' }),
      ],
      line: 'The user cleared the task list.',
    },
    { name: 'closing by /clear or an edit is not news', events: [ev('closed', null, { reason: 'edit' })], line: null },
    {
      name: 'another agent over MCP, after the user',
      events: [
        ev('updated', { id: 1, status: 'pending' }, { id: 1, status: 'completed' }),
        ev('updated', { id: 2, status: 'pending' }, { id: 2, status: 'completed' }, 'mcp:claude-code'),
        ev('updated', { id: 3, title: 'A' }, { id: 3, title: 'B' }, 'mcp:claude-code'),
      ],
      line: 'The user marked task 1 completed. claude-code (another agent, over MCP) marked task 2 completed and renamed task 3.',
    },
  ])('$name', ({ events, line }) => {
    expect(describeUserChanges(events)).toBe(line);
  });
});

describe('task-planning guidance', () => {
  it.each<[TaskToolStyle, readonly string[], readonly string[]]>([
    ['full-list', FULL_LIST_TOOLS, GRANULAR_TOOLS],
    ['granular', GRANULAR_TOOLS, FULL_LIST_TOOLS],
  ])('for %s names its tools and not the others', (style, mine, others) => {
    const text = guidanceFor(style);
    expect(text).toMatch(/^## Task planning/);
    expect(text).not.toContain('<!--');
    for (const name of mine) expect(text).toContain(name);
    for (const name of others) expect(text).not.toContain(name);
    expect(text).toContain('as soon as it is done');
  });

  it('reads the editable Markdown file', () => {
    expect(
      guidanceFor(
        'granular',
        '<!-- note -->\n<!-- all -->\nShared\n<!-- full-list -->\nFull\n<!-- granular -->\nGranular',
      ),
    ).toBe('Shared\nGranular');
  });
});

describe('tool descriptions, docs/tools.md and the guidance say the same', () => {
  const docs = fs.readFileSync(path.join(import.meta.dirname, '../../docs/tools.md'), 'utf8');
  const tools = createTaskTools({} as never);

  it.each(tools.map((t) => [t.name, t] as const))('%s is documented with its parameters', (name, tool) => {
    expect(docs).toContain(`\`${name}\``);
    const shape = (tool.parameters as unknown as { shape: Record<string, unknown> }).shape;
    for (const field of Object.keys(shape)) expect(docs, `${name}.${field}`).toContain(`\`${field}\``);
  });

  it.each(['as soon as it is done', 'in_progress', '3 or more steps'])('all of them say %j', (phrase) => {
    expect(docs).toContain(phrase);
    expect(guidanceFor('full-list')).toContain(phrase);
    expect(tools.find((t) => t.name === 'manage_todo_list')!.description).toContain(phrase);
  });

  it('status words are listed the same way everywhere', () => {
    for (const word of ['pending', 'in_progress', 'completed', 'cancelled', 'not-started', 'in-progress', 'done']) {
      expect(docs).toContain(word);
      expect(guidanceFor('granular')).toContain(word);
      expect(tools.find((t) => t.name === 'task_update')!.description).toContain(word);
    }
  });
});

describe('the prompt provider', () => {
  const f = taskFixturePerTest();
  let style: TaskToolStyle;
  beforeEach(() => {
    style = 'full-list';
  });
  const ctx = () => ({ conversationId: f.conversationId, agentId: 'main' });

  it('sends guidance always, the block when a list is open, and follows the style setting', async () => {
    const provider = createTaskPromptProvider({ tasks: f.tasks, style: () => style });
    const empty = provider.systemSection(ctx())!;
    expect(empty).toContain('manage_todo_list');
    expect(empty).not.toMatch(/^<taskList>$/m);
    await f.call('task_create', { title: 'Plan the trip' });
    style = 'granular';
    const section = provider.systemSection(ctx())!;
    expect(section).toContain('task_create');
    expect(section).not.toContain('manage_todo_list');
    expect(section.endsWith('<taskList>\n- [pending] (1) Plan the trip\nProgress: 0/1 completed\n</taskList>')).toBe(
      true,
    );
  });

  it('tells the model once what the user changed, after the request was sent', async () => {
    const provider = createTaskPromptProvider({ tasks: f.tasks, style: () => style });
    for (const title of ['Book flights', 'Find a hotel', 'Rent a car', 'Pack']) await f.call('task_create', { title });
    provider.systemSection(ctx());
    provider.afterRequest!(ctx());
    expect(provider.systemSection(ctx())).not.toContain('The user');

    f.tasks.change(f.conversationId, USER, userUpdateOp(3, { status: 'completed' }));
    f.tasks.change(f.conversationId, USER, userUpdateOp(4, { title: 'Pack light' }));
    const line = 'The user marked task 3 completed and renamed task 4.';
    expect(provider.systemSection(ctx())).toContain(line);
    // Not sent yet (e.g. the request failed before it started): still pending.
    expect(provider.systemSection(ctx())).toContain(line);
    // A worker's prompt neither shows nor consumes it.
    expect(provider.systemSection({ conversationId: f.conversationId, agentId: 'worker-1' })).not.toContain('The user');
    provider.afterRequest!({ conversationId: f.conversationId, agentId: 'worker-1' });
    expect(provider.systemSection(ctx())).toContain(line);
    provider.afterRequest!(ctx());
    expect(provider.systemSection(ctx())).not.toContain('The user');

    // The model's own changes are never reported as the user's.
    await f.call('task_update', { taskId: 1, status: 'in_progress' });
    f.tasks.change(f.conversationId, USER, userAddOp('Buy snacks', USER));
    f.tasks.change(f.conversationId, USER, deleteOp(2));
    f.tasks.change(f.conversationId, USER, reorderOp([5, 1, 3, 4]));
    expect(provider.systemSection(ctx())).toContain('The user added task 5, deleted task 2 and reordered the tasks.');
  });

  it('the consumed mark survives a restart (it is in the database)', async () => {
    const provider = createTaskPromptProvider({ tasks: f.tasks, style: () => style });
    await f.call('task_create', { title: 'Book flights' });
    f.tasks.change(f.conversationId, USER, userUpdateOp(1, { status: 'completed' }));
    provider.systemSection(ctx());
    provider.afterRequest!(ctx());
    const fresh = createTaskPromptProvider({ tasks: f.tasks, style: () => style });
    expect(fresh.systemSection(ctx())).not.toContain('The user');
  });
});
