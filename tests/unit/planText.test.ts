// The plan diff and the texts plan review writes into a conversation, read back by the
// transcript (dividers, "Changes requested", "Plan changed").
import { describe, expect, it } from 'vitest';
import {
  approvedDivider,
  approvedMessage,
  changesRequestedBody,
  changesRequestedMessage,
  parsePlanChanged,
  planChangedNote,
  planDiff,
  sameTasks,
} from '../../src/shared/planText';

const plan = (...titles: string[]) => titles.map((title, i) => ({ id: i + 1, title }));
const NONE = { general: '', tasks: [] };

describe('planDiff', () => {
  it('names additions, deletions, renames and moves by task id', () => {
    const before = plan('Collect', 'Draft', 'Email');
    const after = [
      { id: 2, title: 'Draft briefly' },
      { id: 1, title: 'Collect' },
      { id: 4, title: 'Book a room' },
    ];
    expect(planDiff(before, after)).toEqual([
      { kind: 'deleted', id: 3, title: 'Email' },
      { kind: 'renamed', id: 2, title: 'Draft briefly', from: 'Draft' },
      { kind: 'added', id: 4, title: 'Book a room' },
      { kind: 'moved', id: 2, title: 'Draft briefly' },
      { kind: 'moved', id: 1, title: 'Collect' },
    ]);
  });

  it('finds nothing when only other tasks were removed, and sameTasks compares ids, titles and order', () => {
    expect(planDiff(plan('A', 'B'), plan('A', 'B'))).toEqual([]);
    expect(sameTasks(plan('A', 'B'), plan('A', 'B'))).toBe(true);
    expect(
      sameTasks(plan('A', 'B'), [
        { id: 2, title: 'B' },
        { id: 1, title: 'A' },
      ]),
    ).toBe(false);
  });
});

describe('plan messages', () => {
  it('the approval reads back as its divider', () => {
    const text = approvedMessage(2, plan('Collect', 'Draft'), {
      general: 'Go.',
      tasks: [{ taskId: 2, text: 'Short.' }],
    });
    expect(text).toContain('starting with task 1 “Collect”');
    expect(text).toContain('- On task 2 “Draft”: Short.');
    expect(approvedDivider(text)).toBe('Plan approved · 2 tasks · revision 2');
    expect(approvedDivider(approvedMessage(1, plan('Only'), NONE))).toBe('Plan approved · 1 task · revision 1');
    expect(approvedDivider('Hello')).toBeNull();
  });

  it('Changes requested keeps the edits, comments and the list, without its marker lines', () => {
    const text = changesRequestedMessage(
      planDiff(plan('A', 'B'), plan('A')),
      { general: 'Fewer steps.', tasks: [] },
      plan('A'),
    );
    const body = changesRequestedBody(text)!;
    expect(body).toBe(
      [
        'The user edited the list:',
        '- Deleted task 2 “B”',
        'Comments:',
        '- On the plan: Fewer steps.',
        'The list now reads:',
        '1. A',
      ].join('\n'),
    );
    expect(changesRequestedBody('Please change it')).toBeNull();
  });

  it('the Plan changed note gives the summary and the plan before and after', () => {
    const note = planChangedNote(3, planDiff(plan('A'), plan('A', 'B')), plan('A'), plan('A', 'B'));
    expect(parsePlanChanged(note)).toEqual({
      summary: 'Added task 2 “B” (revision 3)',
      before: ['1. A'],
      after: ['1. A', '2. B'],
    });
    expect(parsePlanChanged('Plan changed, sort of')).toBeNull();
  });
});
