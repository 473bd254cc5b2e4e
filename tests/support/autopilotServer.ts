// One scripted server playing both the model and Autopilot's assessor: requests whose
// system prompt is the assessor's take the next assessor turn, all others the next model
// turn. A turn may be a function (to look at the request, or to answer late). Other
// non-streaming requests are the conversation's auto-title and get a fixed title.
import { ASSESSOR_SYSTEM } from '../../src/main/core/autopilot/assessorPrompt';
import {
  startScriptedServer,
  type ChatBody,
  type RecordedRequest,
  type ScriptedServer,
  type Turn,
} from './scriptedServer';
import { afterEach, beforeEach } from 'vitest';
import { startChatCore, type ChatHarness } from './chatHarness';
import { modelText } from '../../src/shared/messageKinds';

type Request = RecordedRequest & { body: ChatBody };
export type ScriptedTurn = Turn | ((request: Request) => Turn | Promise<Turn>);

export interface AutopilotServer {
  server: ScriptedServer;
  /** Turns of the conversation's agent, in order; unscripted requests get the text "OK". */
  model: ScriptedTurn[];
  /** Turns of the assessor, in order; an unscripted check gets an HTTP 418 (not retried). */
  assessor: ScriptedTurn[];
  assessorRequests(): Request[];
  modelRequests(): Request[];
  close(): Promise<void>;
}

export const TITLE = 'Autopilot at work';

export const isAssessorRequest = (body: ChatBody) =>
  body.messages[0]?.role === 'system' && body.messages[0].content === ASSESSOR_SYSTEM;

export async function startAutopilotServer(): Promise<AutopilotServer> {
  const model: ScriptedTurn[] = [];
  const assessor: ScriptedTurn[] = [];
  const server = await startScriptedServer({
    script: (request) => {
      const forAssessor = isAssessorRequest(request.body);
      if (!forAssessor && request.body.stream !== true) return { text: TITLE };
      const next = (forAssessor ? assessor : model).shift();
      if (!next) return forAssessor ? { status: 418, errorMessage: 'no assessor turn was scripted' } : { text: 'OK' };
      return typeof next === 'function' ? next(request) : next;
    },
  });
  return {
    server,
    model,
    assessor,
    assessorRequests: () => server.chatRequests().filter((r) => isAssessorRequest(r.body)),
    modelRequests: () => server.streamRequests(),
    close: () => server.close(),
  };
}

/** The assessor's answer as JSON text. */
export const verdict = (done: boolean, reason: string): Turn => ({ text: JSON.stringify({ done, reason }) });

/** A manage_todo_list call setting `titles[i]` to `statuses[i]` (ids 1..n), then optional text in a later round. */
export function plan(titles: string[], statuses: string[]): Turn {
  const todoList = titles.map((title, i) => ({ id: i + 1, title, status: statuses[i] }));
  return { toolCalls: [{ name: 'manage_todo_list', arguments: JSON.stringify({ todoList }) }] };
}

/** A promise the test resolves when it chooses: an assessor that answers late. */
export function gate<T>() {
  let open!: (value: T) => void;
  const promise = new Promise<T>((resolve) => (open = resolve));
  return { promise, open };
}

/**
 * Per test: an autopilot server and a core pointed at it, plus the helpers both autopilot
 * test files read the conversation with.
 */
export function autopilotPerTest(receive: (server: AutopilotServer, harness: ChatHarness) => void) {
  let server: AutopilotServer | null = null;
  let harness: ChatHarness | null = null;
  beforeEach(async () => {
    server = await startAutopilotServer();
    harness = startChatCore(server.server);
    receive(server, harness);
  });
  afterEach(async () => {
    harness?.close();
    await server?.close();
  });
}

/** A new conversation with Autopilot switched on; returns its id. */
export async function autopilotConversation(h: ChatHarness): Promise<string> {
  const conversation = await h.newConversation('Autopilot');
  await h.call('autopilot:set', { conversationId: conversation.id, enabled: true });
  return conversation.id;
}

export const statuses = (h: ChatHarness, id: string) => h.core.tasks.get(id)?.tasks.map((t) => t.status) ?? [];
export const autoMessages = (h: ChatHarness, id: string) =>
  h
    .messages(id)
    .filter((m) => m.role === 'user' && m.origin === 'auto')
    .map((m) => modelText(m));
