// The tools of delegation: `start_task` (main agent only), `ask_user` (workers only)
// and `think` (everyone).
import { z } from 'zod';
import type { TaskList } from '../../../shared/tasks';
import { defineTool, type ToolDefinition } from '../tools/toolTypes';
import type { TaskService } from '../tasks/taskService';
import type { WorkerManager } from './workerManager';

const StartTaskArgs = z.object({
  task_description: z.string().trim().min(1, { error: 'task_description must not be empty' }).max(8000),
  expected_output_format: z.string().max(4000).optional(),
  taskId: z.coerce.number().int().positive().optional(),
});

/** Hands a task to a worker: it becomes the owner and the task is set in progress. */
function assignTask(tasks: TaskService, conversationId: string, taskId: number, owner: string): string | null {
  const result = tasks.change(conversationId, { actor: 'model', owner: 'main', claims: false }, (state) => {
    const task = state.tasks.find((t) => t.id === taskId);
    if (!task) {
      const ids = state.tasks.map((t) => t.id);
      const range = ids.length ? `tasks ${Math.min(...ids)}–${Math.max(...ids)}` : 'no tasks';
      return { ok: false, error: `Task ${taskId} not found (this list has ${range})` };
    }
    if (task.status === 'completed' || task.status === 'cancelled') {
      return { ok: false, error: `Task ${taskId} is already ${task.status}; pick an open task.` };
    }
    const next = state.tasks.map((t) => (t.id === taskId ? { ...t, owner, status: 'in_progress' as const } : t));
    return { ok: true, value: { tasks: next, value: null } };
  });
  return result.ok ? null : result.error;
}

export function createWorkerTools(deps: { workers: WorkerManager; tasks: TaskService }): ToolDefinition[] {
  const { workers, tasks } = deps;
  return [
    defineTool({
      name: 'start_task',
      availableTo: 'main',
      // Starting a worker changes nothing by itself: the worker's own calls pass the plan gate.
      safeWhilePlanning: true,
      description:
        'Start a worker: a sub-agent that carries out one task in parallel with others and reports its complete result back to you as a message: "Task M was completed by worker N with this result: …" (its task is marked completed for you), or "Worker N finished: …" without a task. ' +
        'Describe WHAT the worker must achieve (outcome, scope, constraints), not HOW. Optionally say what shape the answer should have (expected_output_format) and pass taskId to hand it that task from the task list (it becomes the owner and the task is set in progress). ' +
        'Returns at once with {task_id, status: "started"|"queued"}; do not wait for results in a loop — end your turn and you will be resumed when results arrive.',
      parameters: StartTaskArgs,
      handler: (args, ctx) => {
        let taskId: number | null = null;
        if (args.taskId !== undefined) {
          const list: TaskList | null = tasks.get(ctx.conversationId);
          if (!list)
            return JSON.stringify({ ok: false, error: 'There is no open task list; create one first or omit taskId.' });
          taskId = args.taskId;
        }
        const started = workers.start(ctx.conversationId, {
          description: args.task_description,
          expectedOutput: args.expected_output_format ?? '',
          taskId,
        });
        if (taskId !== null) {
          const error = assignTask(tasks, ctx.conversationId, taskId, started.task_id);
          if (error)
            return JSON.stringify({
              ...started,
              warning: `The worker started, but the task was not assigned: ${error}`,
            });
        }
        return JSON.stringify(started);
      },
    }),
    defineTool({
      name: 'ask_user',
      availableTo: 'workers',
      safeWhilePlanning: true,
      description:
        'Ask the user one clear question when the task is ambiguous or needs something only the user knows. Waits for the answer and returns it.',
      parameters: z.object({ question: z.string().trim().min(1, { error: 'question must not be empty' }).max(4000) }),
      handler: (args, ctx) => workers.ask(ctx.conversationId, ctx.agentId, args.question, ctx.signal),
    }),
    defineTool({
      name: 'think',
      safeWhilePlanning: true,
      description:
        'Write down your reasoning before acting when a plan or a result is not obvious. The thought is shown to the user as a collapsible "Thinking" card; it changes nothing else.',
      parameters: z.object({ thought: z.string().max(20_000) }),
      handler: () => 'Thought recorded',
    }),
  ] as unknown as ToolDefinition[];
}
