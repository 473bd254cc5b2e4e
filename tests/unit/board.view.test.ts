// The board's pure rules (shared by the page's live updates and core's export) and its
// keyboard shortcut.
import { describe, expect, it } from 'vitest';
import { ALL_OPEN, boardStatus, listMatches, ownerLabel, shownTasks } from '../../src/shared/boardView';
import { isBoardKey } from '../../src/renderer/common/shortcuts';

type Status = 'pending' | 'in_progress' | 'completed' | 'cancelled';
const task = (id: number, title: string, status: Status, openBlockers: number[] = []) => ({
  id,
  title,
  status,
  openBlockers,
});
const tasks = [
  task(1, 'Book flights', 'completed'),
  task(2, 'Find a hotel', 'in_progress'),
  task(3, 'Rent a car', 'pending', [2]),
  task(4, 'Pack', 'pending'),
  task(5, 'Old idea', 'cancelled'),
];
const ids = (list: Array<{ id: number }>) => list.map((t) => t.id);

describe('board rules', () => {
  it('a pending task with open blockers is blocked; owners read as people', () => {
    expect(tasks.map(boardStatus)).toEqual(['completed', 'in_progress', 'blocked', 'pending', 'cancelled']);
    expect(ownerLabel('main')).toBe('main agent');
    expect(ownerLabel('worker-12')).toBe('Worker 12');
    expect(ownerLabel('someone')).toBe('someone');
  });

  it('shows tasks of the chosen statuses, and by text all of a matching conversation or the matching tasks', () => {
    expect(ids(shownTasks(tasks, 'Trip', ALL_OPEN))).toEqual([1, 2, 3, 4, 5]);
    expect(ids(shownTasks(tasks, 'Trip', { ...ALL_OPEN, statuses: ['pending'] }))).toEqual([4]);
    expect(ids(shownTasks(tasks, 'Trip', { ...ALL_OPEN, statuses: ['blocked', 'completed'] }))).toEqual([1, 3]);
    expect(ids(shownTasks(tasks, 'Trip', { ...ALL_OPEN, text: ' HOTEL ' }))).toEqual([2]);
    expect(
      ids(shownTasks(tasks, 'Trip to Lisbon', { ...ALL_OPEN, text: 'lisbon', statuses: ['in_progress'] })),
    ).toEqual([2]);
  });

  it('lists a conversation with an unfinished task (or any, with Show completed lists) in the folder', () => {
    const done = [task(1, 'Write it', 'completed')];
    expect(listMatches({ title: 'T', folderId: null, tasks }, ALL_OPEN)).toBe(true);
    expect(listMatches({ title: 'T', folderId: null, tasks: done }, ALL_OPEN)).toBe(false);
    expect(listMatches({ title: 'T', folderId: null, tasks: done }, { ...ALL_OPEN, showCompleted: true })).toBe(true);
    expect(listMatches({ title: 'T', folderId: null, tasks: [] }, { ...ALL_OPEN, showCompleted: true })).toBe(false);
    expect(listMatches({ title: 'T', folderId: 'a', tasks }, { ...ALL_OPEN, folderId: 'b' })).toBe(false);
    expect(listMatches({ title: 'T', folderId: null, tasks }, { ...ALL_OPEN, text: 'nothing' })).toBe(false);
  });
});

describe('the board shortcut', () => {
  const key = (init: Partial<KeyboardEvent>) =>
    ({ ctrlKey: false, metaKey: false, altKey: false, shiftKey: false, code: 'KeyT', ...init }) as KeyboardEvent;
  it('is Ctrl/⌘+Shift+T or Alt+Shift+T, nothing else', () => {
    expect(isBoardKey(key({ ctrlKey: true, shiftKey: true }))).toBe(true);
    expect(isBoardKey(key({ metaKey: true, shiftKey: true }))).toBe(true);
    expect(isBoardKey(key({ altKey: true, shiftKey: true }))).toBe(true);
    expect(isBoardKey(key({ ctrlKey: true }))).toBe(false);
    expect(isBoardKey(key({ ctrlKey: true, altKey: true, shiftKey: true }))).toBe(false);
    expect(isBoardKey(key({ ctrlKey: true, shiftKey: true, code: 'KeyY' }))).toBe(false);
  });
});
