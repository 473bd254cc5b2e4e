// System prompt sections for delegation: the main agent learns how to use workers; a
// worker gets the worker guidance, its <task> and the <expected_output_format>.
import type { PromptProvider } from '../llm/promptTypes';
import delegationGuidance from './delegation-guidance.md?raw';
import workerGuidance from './worker-guidance.md?raw';
import type { WorkerManager } from './workerManager';

function escapeTags(text: string): string {
  return text.replace(/<\/?(task|expected_output_format)>/gi, (tag) => tag.replace('<', '‹').replace('>', '›'));
}

export function createWorkerPromptProvider(workers: WorkerManager): PromptProvider {
  return {
    systemSection(ctx) {
      if (ctx.agentId === 'main') return delegationGuidance;
      const stored = workers.byOwner(ctx.conversationId, ctx.agentId);
      if (!stored) return null;
      const parts = [workerGuidance.trim(), `<task>\n${escapeTags(stored.worker.description)}\n</task>`];
      if (stored.expectedOutput.trim()) {
        parts.push(`<expected_output_format>\n${escapeTags(stored.expectedOutput)}\n</expected_output_format>`);
      }
      if (stored.worker.taskId !== null)
        parts.push(`Your task in the shared task list is task ${stored.worker.taskId}.`);
      return parts.join('\n\n');
    },
  };
}
