// The plan diff and the messages plan review writes into a conversation: their payloads,
// the text the model reads and the transcript's lines.
import { describe, expect, it } from 'vitest';
import {
  approvedPayload,
  changesRequestedPayload,
  planChangedPayload,
  planDiff,
  sameTasks,
} from '../../src/shared/planText';
import { plumbingDetails, plumbingLine, plumbingModelText } from '../../src/shared/messageKinds';

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
  it('the approval is a payload; the model reads the text of old, the transcript its line', () => {
    const payload = approvedPayload(2, plan('Collect', 'Draft'), {
      general: 'Go.',
      tasks: [{ taskId: 2, text: 'Short.' }],
    });
    expect(plumbingModelText(payload)).toBe(
      [
        'PLAN_APPROVED: revision 2 · 2 tasks',
        'The user approved the plan. Carry it out now, starting with task 1 “Collect”.',
        'The user commented:',
        '- On task 2 “Draft”: Short.',
        '- On the plan: Go.',
      ].join('\n'),
    );
    expect(plumbingLine(payload)).toBe('Plan approved · 2 tasks · revision 2');
    expect(plumbingLine(approvedPayload(1, plan('Only'), NONE))).toBe('Plan approved · 1 task · revision 1');
    expect(plumbingDetails(payload)).toEqual(['On task 2 “Draft”: Short.', 'On the plan: Go.']);
  });

  it('Changes requested keeps the edits, comments and the list', () => {
    const payload = changesRequestedPayload(
      planDiff(plan('A', 'B'), plan('A')),
      { general: 'Fewer steps.', tasks: [] },
      plan('A'),
    );
    expect(plumbingModelText(payload)!.split('\n').slice(2)).toEqual([
      'The user edited the list:',
      '- Deleted task 2 “B”',
      'Comments:',
      '- On the plan: Fewer steps.',
      'The list now reads:',
      '1. A',
    ]);
    expect(plumbingLine(payload)).toBe('Changes requested: 1 edit, 1 comment');
    expect(plumbingDetails(payload)).toEqual(['Deleted task 2 “B”', 'On the plan: Fewer steps.']);
  });

  it('the Plan changed note gives the summary and the plan before and after, and is never sent', () => {
    const payload = planChangedPayload(3, planDiff(plan('A'), plan('A', 'B')), plan('A'), plan('A', 'B'));
    expect(plumbingLine(payload)).toBe('Plan changed: Added task 2 “B” (revision 3)');
    expect(payload).toMatchObject({ before: ['A'], after: ['A', 'B'] });
    expect(plumbingModelText(payload)).toBeNull();
  });
});
