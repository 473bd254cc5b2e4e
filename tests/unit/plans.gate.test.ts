// The plan gate's rule for every mode × phase × tool kind × agent (docs/task-lists.md,
// "Plan review"), and the gate that applies it to real tool definitions: what runs, what is
// held, what is refused for want of a plan, and what waits.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  createPlanGate,
  decide,
  HELD,
  NO_PLAN,
  WORKER_REFUSED,
  type GateDecision,
  type GateDeps,
} from '../../src/main/core/plans/planGate';
import { PLAN_REVIEW_MODES } from '../../src/shared/planModes';
import type { PlanPhase, PlanReviewMode } from '../../src/shared/planContract';
import { defineTool, type ToolContext, type ToolDefinition } from '../../src/main/core/tools/toolTypes';

const PHASES: PlanPhase[] = ['off', 'planning', 'review', 'approved'];

/** The table the issue asks for, written out: [mode, phase, agent] → decision for a tool that acts. */
function expected(mode: PlanReviewMode, phase: PlanPhase, worker: boolean): GateDecision {
  if (mode === 'off' || phase === 'off') return 'run';
  if (phase === 'approved') return mode === 'every_plan' && !worker ? 'wait_for_change' : 'run';
  if (phase === 'review') return worker ? 'wait_for_plan' : 'held';
  return 'no_plan';
}

describe('decide', () => {
  for (const mode of PLAN_REVIEW_MODES) {
    for (const phase of PHASES) {
      for (const worker of [false, true]) {
        const who = worker ? 'a worker' : 'the main agent';
        it(`${mode} × ${phase} × ${who}: a tool that changes nothing runs; one that acts: ${expected(mode, phase, worker)}`, () => {
          expect(decide({ acts: false, worker, mode, phase, listInReply: false })).toBe('run');
          expect(decide({ acts: true, worker, mode, phase, listInReply: false })).toBe(expected(mode, phase, worker));
        });
      }
    }
  }

  it('a list written in the same reply turns "write the plan first" into held, for the main agent only', () => {
    for (const mode of ['before_acting', 'every_plan'] as const) {
      expect(decide({ acts: true, worker: false, mode, phase: 'planning', listInReply: true })).toBe('held');
      expect(decide({ acts: true, worker: true, mode, phase: 'planning', listInReply: true })).toBe('no_plan');
    }
    expect(decide({ acts: true, worker: false, mode: 'off', phase: 'off', listInReply: true })).toBe('run');
  });
});

const ctx = (agentId: string, batch?: string[]): ToolContext => ({
  conversationId: 'c1',
  agentId,
  signal: new AbortController().signal,
  callId: 'call_1',
  batch,
});
const tool = (name: string, safeWhilePlanning?: ToolDefinition['safeWhilePlanning']): ToolDefinition =>
  defineTool({ name, description: name, parameters: z.object({}), safeWhilePlanning, handler: () => 'ran' }) as never;

function gateAt(mode: PlanReviewMode, phase: PlanPhase) {
  const waits: Array<[string, string]> = [];
  const deps: GateDeps = {
    phase: () => ({ mode, phase }),
    taskCount: () => 3,
    wait: (kind, t) => {
      waits.push([kind, t.name]);
      return kind === 'wait_for_change' ? null : Promise.resolve(null);
    },
  };
  return { gate: createPlanGate(deps), waits };
}

describe('createPlanGate', () => {
  const acting = tool('mcp__memory__create_entities');
  const readOnly = tool('mcp__memory__read_graph', () => true);
  const startTask = tool('start_task', true);

  it('tools that change nothing run in every phase, start_task included', () => {
    for (const phase of PHASES) {
      const { gate } = gateAt('before_acting', phase);
      for (const t of [readOnly, startTask]) {
        expect(gate(t, {}, ctx('main'))).toBeNull();
        expect(gate(t, {}, ctx('worker-1'))).toBeNull();
      }
    }
  });

  it('review: the main agent’s call is held, a worker’s waits for the approval', () => {
    const { gate, waits } = gateAt('before_acting', 'review');
    expect(gate(acting, {}, ctx('main'))).toBe(HELD);
    expect(HELD).toMatchObject({ refused: true, outcome: 'held' });
    expect(gate(acting, {}, ctx('worker-2'))).toBeInstanceOf(Promise);
    expect(waits).toEqual([['wait_for_plan', acting.name]]);
  });

  it('planning: refused with "write your plan first", unless the same reply writes the list', () => {
    const { gate } = gateAt('before_acting', 'planning');
    expect(gate(acting, {}, ctx('main'))).toBe(NO_PLAN);
    expect(gate(acting, {}, ctx('main', ['mcp__memory__create_entities', 'manage_todo_list']))).toBe(HELD);
    expect(gate(acting, {}, ctx('main', ['task_create', 'mcp__memory__create_entities']))).toBe(HELD);
    expect(gate(acting, {}, ctx('main', ['task_update', 'mcp__memory__create_entities']))).toBe(NO_PLAN);
    expect(gate(acting, {}, ctx('worker-1'))).toBe(WORKER_REFUSED);
  });

  it('approved: runs; "Every plan" asks whether a change is held first (for the main agent)', () => {
    const before = gateAt('before_acting', 'approved');
    expect(before.gate(acting, {}, ctx('main'))).toBeNull();
    expect(before.waits).toEqual([]);
    const every = gateAt('every_plan', 'approved');
    expect(every.gate(acting, {}, ctx('main'))).toBeNull();
    expect(every.gate(acting, {}, ctx('worker-1'))).toBeNull();
    expect(every.waits).toEqual([['wait_for_change', acting.name]]);
  });

  it('off: everything runs', () => {
    const { gate, waits } = gateAt('off', 'off');
    expect(gate(acting, {}, ctx('main'))).toBeNull();
    expect(gate(acting, {}, ctx('worker-1'))).toBeNull();
    expect(waits).toEqual([]);
  });
});
