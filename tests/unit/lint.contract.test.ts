// `npm run lint` runs scripts/contractLint.mjs: it reports a Pick<Handlers, '…'> list and
// a call into another module's handler table, lets createCore spread whole tables, and
// finds nothing in src/ today.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain .mjs script without types
import { checkTree, contractFindings } from '../../scripts/contractLint.mjs';

const root = path.resolve(import.meta.dirname, '../..');
const findings = (text: string) => contractFindings('src/main/core/x/xModule.ts', text) as string[];

describe('the contract lint', () => {
  it("reports a Pick<Handlers, '…'> list, on one line or several", () => {
    expect(findings("const handlers: Pick<Handlers, 'drafts:list'> = {};")).toEqual([
      "src/main/core/x/xModule.ts:1: a Pick<Handlers, '…'> list: type the handlers from the fragment, HandlersFor<typeof xCalls>",
    ]);
    const multiline = "import x from 'y';\ntype Calls = Pick<\n  Handlers,\n  'tasks:get' | 'tasks:add'\n>;";
    expect(findings(multiline)).toHaveLength(1);
    expect(findings(multiline)[0]).toMatch(/:2: a Pick<Handlers/);
  });

  it("reports a call into another module's handler table, however it is written", () => {
    for (const call of [
      "await autopilot.handlers['autopilot:set']({ conversationId, enabled: true });",
      'deps.plans.handlers["plan:get"]({ conversationId });',
      'core.handlers?.[name](params);',
      'const get = questions.handlers.list;',
      "handlers['questions:answer']({ questionId, reply });",
    ]) {
      expect(findings(call), call).not.toEqual([]);
    }
  });

  it('lets createCore spread whole tables, the dispatcher look a call up, and comments name them', () => {
    const allowed = [
      'const handlers: Handlers = { ...notices.handlers, ...chat.handlers };',
      'return { handlers: { ...handlers, ...activity.handlers } };',
      'const handler = handlers[method] as (p: unknown) => unknown;',
      "const handlers: HandlersFor<typeof draftCalls> = { 'drafts:list': () => list() };",
      "// never autopilot.handlers['autopilot:set'] before autopilot exists",
      "/** Not Pick<Handlers, 'x'>: */ const y = 1;",
    ];
    for (const line of allowed) expect(findings(line), line).toEqual([]);
  });

  it('finds nothing in src/', () => {
    expect(checkTree(root)).toEqual([]);
  });
});
