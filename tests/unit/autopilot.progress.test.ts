// The pure parts of Autopilot: which task comes next, and what the assessor reads of the last turn.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ASSESSOR_SYSTEM, assessorUserMessage, lastTurn } from '../../src/main/core/autopilot/assessorPrompt';
import { nextAvailable } from '../../src/main/core/autopilot/taskProgress';
import type { Message } from '../../src/shared/domain';
import type { TaskStatus } from '../../src/shared/tasks';

const task = (id: number, status: TaskStatus, blockedBy: number[] = []) => ({ id, status, blockedBy });

describe('nextAvailable', () => {
  it('takes the first pending task whose blockers are completed or cancelled', () => {
    expect(
      nextAvailable([task(1, 'completed'), task(2, 'pending', [3]), task(3, 'pending'), task(4, 'pending')])?.id,
    ).toBe(3);
    expect(nextAvailable([task(1, 'cancelled'), task(2, 'pending', [1])])?.id).toBe(2);
    expect(nextAvailable([task(1, 'in_progress'), task(2, 'pending', [1])])).toBeNull();
    expect(nextAvailable([task(1, 'completed'), task(2, 'completed')])).toBeNull();
  });

  it('leaves out tasks handed to a worker', () => {
    expect(nextAvailable([task(1, 'pending'), task(2, 'pending')], new Set([1]))?.id).toBe(2);
  });
});

let nextId = 1;
function message(role: Message['role'], content: string, tools: string[] = []): Message {
  const id = nextId++;
  return {
    id,
    conversationId: '00000000-0000-4000-8000-000000000000',
    role,
    content,
    usage: null,
    model: null,
    summaryThrough: null,
    createdAt: id,
    toolCalls: tools.length ? tools.map((name, i) => ({ id: `c${id}-${i}`, name, arguments: '{}' })) : null,
    toolCallId: null,
    toolName: null,
    status: 'complete',
    error: null,
    origin: role === 'user' ? 'user' : 'system',
  };
}

describe('lastTurn', () => {
  it('reads only the turn after the last user-role message: last text, tool calls counted', () => {
    const history = [
      message('user', 'Earlier'),
      message('assistant', 'Old reply', ['old_tool']),
      message('user', 'NEXT_TODO: Step two'),
      message('assistant', 'Let me look.', ['read_file', 'read_file']),
      message('tool', 'file contents'),
      message('assistant', '', ['write_file']),
      message('tool', 'written'),
      message('assistant', '  Step two is done.  '),
    ];
    expect(lastTurn(history)).toEqual({ text: 'Step two is done.', tools: 'read_file ×2, write_file' });
  });

  it('keeps the end of a long reply', () => {
    const text = `${'x'.repeat(5000)}THE END`;
    const prompt = assessorUserMessage(
      { id: 3, title: 'Write docs', description: 'README and guide' },
      { text, tools: '' },
    );
    expect(prompt).toContain('Current task (3): Write docs\nDescription: README and guide\n');
    expect(prompt).toContain('Tool calls: none');
    expect(prompt).toContain('THE END\n"""');
    expect(prompt.length).toBeLessThan(4300);
  });
});

describe('docs/autopilot.md', () => {
  it('quotes the assessor prompt the code sends', () => {
    const doc = fs.readFileSync(path.resolve(import.meta.dirname, '../../docs/autopilot.md'), 'utf8');
    expect(doc).toContain(`\`\`\`text\n${ASSESSOR_SYSTEM}\n\`\`\``);
  });
});
