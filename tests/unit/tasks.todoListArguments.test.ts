// manage_todo_list lets plain arguments skip its zod schema (`accepts`). That shortcut
// must never let through what the schema refuses, nor hand the handler anything other
// than what the schema would have returned.
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/main/core/db/openDatabase';
import { createEventBus } from '../../src/main/core/ipc/eventBus';
import { createTaskService } from '../../src/main/core/tasks/taskService';
import { createTaskTools } from '../../src/main/core/tasks/taskTools';
import { makeTempDir, removeDir } from '../support/tempDir';

function manageTodoList() {
  const dir = makeTempDir();
  const { db } = openDatabase(dir);
  const tool = createTaskTools(createTaskService({ db, bus: createEventBus() })).find(
    (t) => t.name === 'manage_todo_list',
  )!;
  db.close();
  removeDir(dir);
  return tool;
}

const item = (fields: Record<string, unknown> = {}) => ({
  id: 1,
  title: 'Write the parser',
  status: 'pending',
  ...fields,
});

const PLAIN: Array<[string, unknown]> = [
  ['an empty list', { todoList: [] }],
  ['items with the required fields', { todoList: [item(), item({ id: 2, status: 'completed' })] }],
  [
    'items with every field',
    { todoList: [item({ description: 'Done when it parses', activeForm: 'Writing the parser' })] },
  ],
  ['any status word (the handler explains unknown ones)', { todoList: [item({ status: 'wip' })] }],
  ['an empty title (the handler refuses it with its own message)', { todoList: [item({ title: '' })] }],
  ['the largest id', { todoList: [item({ id: 9999 })] }],
  ['50 tasks', { todoList: Array.from({ length: 50 }, (_, i) => item({ id: i + 1, description: `Step ${i + 1}` })) }],
];

const NOT_PLAIN: Array<[string, unknown]> = [
  ['no todoList', {}],
  ['another key beside todoList', { todoList: [item()], note: 'x' }],
  ['the list as a JSON string', { todoList: JSON.stringify([item()]) }],
  ['an id as text', { todoList: [item({ id: '2' })] }],
  ['an id written #3', { todoList: [item({ id: '#3' })] }],
  ['a fractional id', { todoList: [item({ id: 1.5 })] }],
  ['id 0', { todoList: [item({ id: 0 })] }],
  ['an id past the largest', { todoList: [item({ id: 10000 })] }],
  ['no title', { todoList: [{ id: 1, status: 'pending' }] }],
  ['no status', { todoList: [{ id: 1, title: 'A' }] }],
  ['a numeric title', { todoList: [item({ title: 7 })] }],
  ['a null description', { todoList: [item({ description: null })] }],
  ['an unknown item key', { todoList: [item({ owner: 'me' })] }],
  ['an item that is an array', { todoList: [[1, 'A', 'pending']] }],
  ['a null item', { todoList: [null] }],
  ['a list that is an object', { todoList: { 0: item() } }],
  ['an array of arguments', [item()]],
  ['null', null],
];

describe('manage_todo_list arguments that skip the schema', () => {
  const tool = manageTodoList();

  it.each(PLAIN)('%s: accepted, and the schema returns the same', (_name, args) => {
    const copy: unknown = JSON.parse(JSON.stringify(args));
    expect(tool.accepts!(copy)).toBe(true);
    const parsed = tool.parameters.safeParse(JSON.parse(JSON.stringify(args)));
    expect(parsed.success).toBe(true);
    expect(copy).toStrictEqual(parsed.data);
  });

  it.each(NOT_PLAIN)('%s: left to the schema', (_name, args) => {
    expect(tool.accepts!(JSON.parse(JSON.stringify(args)))).toBe(false);
  });

  it('an item whose key __proto__ came from JSON is left to the schema', () => {
    expect(
      tool.accepts!(JSON.parse('{"todoList":[{"id":1,"title":"A","status":"pending","__proto__":{"x":1}}]}')),
    ).toBe(false);
  });
});
