// Each table is written only by the core folder that owns it (an import asks the owner's
// writer): a write found anywhere else fails here, naming the file. Migrations (db/) are
// the one exception, as they rebuild every table. A few tables have column owners besides
// their folder: the conversation row carries Autopilot's switch, its folder and its plan
// review mode; messages are also moved between branches by versions.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tables } from '../../src/main/core/db/tables';

const CORE = path.resolve(import.meta.dirname, '../../src/main/core');

const owners: Record<keyof typeof tables, readonly string[]> = {
  activity_events: ['routines'],
  activity_settings: ['routines'],
  attachments: ['attachments'],
  conversation_instructions: ['instructions'],
  conversations: ['conversations', 'autopilot', 'folders', 'plans'],
  drafts: ['drafts'],
  folders: ['folders'],
  folder_roots: ['mcp'],
  message_attachments: ['attachments'],
  messages: ['conversations', 'versions'],
  routines: ['routines'],
  routine_runs: ['routines'],
  task_deps: ['tasks'],
  task_events: ['tasks'],
  plan_drafts: ['plans'],
  plan_revisions: ['plans'],
  plans_done: ['plans'],
  task_continuity: ['continuity'],
  task_lists: ['tasks'],
  task_notice_marks: ['tasks'],
  task_snapshots: ['tasks'],
  task_user_edits: ['tasks'],
  tasks: ['tasks'],
  tool_approvals: ['approvals'],
  tool_calls: ['ledger'],
  tool_outputs: ['mcp'],
  workers: ['agents'],
};

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

const WRITE = /\b(?:INSERT(?:\s+OR\s+\w+)?\s+INTO|REPLACE\s+INTO|UPDATE|DELETE\s+FROM)\s+([a-z_]+)/g;

function writesOutsideOwners(): string[] {
  const found: string[] = [];
  for (const file of sourceFiles(CORE)) {
    const folder = path.relative(CORE, file).split(path.sep)[0];
    if (folder === 'db') continue;
    for (const match of fs.readFileSync(file, 'utf8').matchAll(WRITE)) {
      const table = match[1] as keyof typeof tables;
      if (!(table in owners)) continue;
      if (!owners[table].includes(folder)) found.push(`${path.relative(CORE, file)} writes ${table}`);
    }
  }
  return found;
}

describe('table writers', () => {
  it('every table in db/tables.ts has an owner listed here', () => {
    expect(Object.keys(owners).sort()).toEqual(Object.keys(tables).sort());
  });

  it('no core folder writes a table it does not own', () => {
    expect(writesOutsideOwners()).toEqual([]);
  });

  it('finds a write where it should not be (the scan itself works)', () => {
    const sample = "db.prepare('INSERT INTO plan_revisions (a) VALUES (?)')";
    expect([...sample.matchAll(WRITE)].map((m) => m[1])).toEqual(['plan_revisions']);
  });
});
