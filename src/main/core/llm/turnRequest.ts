// What one request of the agent loop sends: the system prompt, the tools offered, and the
// history that fits the model's window. Built before every request of a turn, and once in
// idle time after start-up for the conversation last written in (sendWarmUp.ts), so the
// first send after a restart finds this code compiled and the history's pages read.
import type { Message } from '../../../shared/domain';
import type { ToolImage } from '../../../shared/mcp';
import { seesImages } from '../../../shared/attachments';
import type { UserContent } from '../context/apiMessages';
import { buildRequestHistory } from '../context/requestHistory';
import type { TokenCounter } from '../context/tokenCount';
import type { MessageRepo } from '../conversations/messageRepo';
import type { ToolRegistry } from '../tools/toolRegistry';
import type { Connection } from './connection';
import { loadHistory } from './compactHistory';
import type { PromptRegistry } from './systemPrompt';

export interface TurnRequestDeps {
  messages: MessageRepo;
  tools: ToolRegistry;
  prompts: PromptRegistry;
  tokens: TokenCounter;
  /** Images tool calls returned, by call id, for models that see images. */
  toolImages?: (conversationId: string) => Map<string, ToolImage[]>;
  /** What a user message with attachments sends to `model` (attachments/). */
  attachments?: { content(message: Message, model: string, vision: boolean): ReturnType<UserContent> };
}

export interface TurnIds {
  /** Where the transcript is stored. */
  conversationId: string;
  /** The conversation the prompt providers and tools act for. */
  scopeId: string;
  agentId: string;
}

export function buildTurnRequest(deps: TurnRequestDeps, connection: Connection, ids: TurnIds) {
  const { conversationId, scopeId, agentId } = ids;
  const promptCtx = { conversationId: scopeId, agentId };
  const prompt = deps.prompts.build(promptCtx);
  const apiTools = deps.tools.apiTools(agentId);
  const toolTokens = apiTools ? deps.tokens.text(JSON.stringify(apiTools)) : 0;
  const vision = seesImages(connection.modelOptions, connection.model);
  const attachmentContent: UserContent | undefined =
    deps.attachments && ((message) => deps.attachments!.content(message, connection.model, vision));
  /** The history as stored now (again after a compaction). */
  const history = () =>
    buildRequestHistory(
      {
        systemPrompt: prompt.text,
        // No more than the window: what lies beyond it can only be trimmed or summarized.
        ...loadHistory(deps.messages, conversationId, { maxTokens: connection.contextWindow, counter: deps.tokens }),
        images: vision ? deps.toolImages?.(conversationId) : undefined,
        userContent: attachmentContent,
        toolTokens,
        contextWindow: connection.contextWindow,
      },
      deps.tokens,
    );
  return { promptCtx, prompt, apiTools, toolTokens, history };
}
