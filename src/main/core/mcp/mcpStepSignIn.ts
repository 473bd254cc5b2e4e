// Which tool steps failed because their server wanted the user to sign in, so the step can
// offer Sign in itself (the model's text says so too, but the renderer reads no control
// signal from text). Kept in memory: after a restart the server's card still offers it.
import type { HandlersFor } from '../../../shared/contract';
import type { mcpStepCalls } from '../../../shared/mcpAppsContract';
import type { ToolContext } from '../tools/toolTypes';

const KEPT = 500;

export function createStepSignIns() {
  const servers = new Map<string, string>();
  const key = (transcriptId: string, callId: string) => `${transcriptId}\n${callId}`;
  return {
    needed(ctx: ToolContext, server: string): void {
      if (!ctx.callId) return;
      servers.set(key(ctx.transcriptId ?? ctx.conversationId, ctx.callId), server);
      if (servers.size > KEPT) servers.delete(servers.keys().next().value!);
    },
    handlers: {
      /** The server the step's call needed a sign-in for, or null. */
      'mcp:stepSignIn': ({ conversationId, toolCallId }) => {
        const server = servers.get(key(conversationId, toolCallId));
        return server ? { server } : null;
      },
    } satisfies HandlersFor<typeof mcpStepCalls>,
  };
}

export type StepSignIns = ReturnType<typeof createStepSignIns>;
