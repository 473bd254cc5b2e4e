// The drafts and shown tasks taskRows.ts builds from rows kept in step by a change's mirrored
// writes are exactly what a fresh build from the same rows gives, after any sequence of
// those writes; and what an earlier call returned never changes afterwards.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { draftFrom, mirror, taskListFrom } from '../../src/main/core/tasks/taskRows';
import type { ListInfo, ListRows, TaskRow } from '../../src/main/core/tasks/taskTypes';

const INFO: ListInfo = { id: 1, conversationId: 'c', createdAt: 1, closedAt: null };
const STATUSES = ['pending', 'in_progress', 'completed', 'cancelled'] as const;

function row(id: number, position: number): TaskRow {
  return {
    id,
    list_id: 1,
    seq: id,
    title: `Task ${id}`,
    description: '',
    active_form: '',
    status: 'pending',
    owner: 'main',
    position,
    created_at: 1,
    updated_at: 1,
    completed_at: null,
    last_message_id: null,
    handed_back: null,
    changed_by: null,
  };
}

/** The same rows in new objects: nothing built is kept for them. */
const copyOf = (list: ListRows): ListRows => ({
  rows: list.rows.map((r) => ({ ...r })),
  blockers: new Map([...list.blockers].map(([task, ids]) => [task, [...ids]])),
});

const write = fc.oneof(
  fc.record({
    kind: fc.constant('update' as const),
    at: fc.nat(7),
    status: fc.constantFrom(...STATUSES),
    title: fc.constantFrom('A', 'B'),
  }),
  fc.record({ kind: fc.constant('changedBy' as const), at: fc.nat(7), by: fc.constantFrom(null, 'claude') }),
  fc.record({ kind: fc.constant('position' as const), at: fc.nat(7), position: fc.nat(9) }),
  fc.record({ kind: fc.constant('blockers' as const), at: fc.nat(7), on: fc.array(fc.nat(7), { maxLength: 2 }) }),
  fc.record({ kind: fc.constant('insert' as const) }),
  fc.record({ kind: fc.constant('remove' as const), at: fc.nat(7) }),
);

describe('drafts and shown tasks kept between changes', () => {
  it('equal a fresh build after any sequence of mirrored writes, and earlier results stay unchanged', () => {
    fc.assert(
      fc.property(fc.array(write, { maxLength: 30 }), (writes) => {
        const list: ListRows = { rows: [1, 2, 3, 4, 5].map((id) => row(id, id - 1)), blockers: new Map() };
        let nextId = 6;
        const earlier: Array<{ value: unknown; snapshot: string }> = [];
        const remember = (value: unknown) => earlier.push({ value, snapshot: JSON.stringify(value) });
        for (const w of writes) {
          remember(draftFrom(list));
          remember(taskListFrom(INFO, list).tasks);
          const target = list.rows[('at' in w ? w.at : 0) % Math.max(1, list.rows.length)];
          if (w.kind === 'insert') mirror.insert(list, row(nextId++, list.rows.length));
          else if (!target) continue;
          else if (w.kind === 'update') {
            const draft = draftFrom(list).find((d) => d.rowId === target.id)!;
            mirror.update(list, { ...draft, status: w.status, title: w.title, rowId: target.id }, 2);
          } else if (w.kind === 'changedBy') mirror.changedBy(list, target.id, w.by);
          else if (w.kind === 'position') mirror.position(list, target.id, w.position);
          else if (w.kind === 'remove') mirror.remove(list, target.id);
          else
            mirror.blockers(
              list,
              target.id,
              w.on.map((i) => list.rows[i % list.rows.length].id).filter((id) => id !== target.id),
            );
          expect(draftFrom(list)).toEqual(draftFrom(copyOf(list)));
          expect(taskListFrom(INFO, list)).toEqual(taskListFrom(INFO, copyOf(list)));
        }
        for (const { value, snapshot } of earlier) expect(JSON.stringify(value)).toBe(snapshot);
      }),
      { numRuns: 500 },
    );
  });
});
