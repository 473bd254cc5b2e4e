// The one IPC contract, assembled from the features' fragments: every call the renderer
// can make and every event main pushes, with its zod schema, lives in a
// `shared/<feature>Contract.ts`; this file only lists them. Both transports (Electron
// ipcMain/preload and the browser host's WebSocket) are generated from these tables, and
// main validates every request against them before any handler runs.
import { z } from 'zod';
import { appCalls, appEvents } from './appContract';
import { approvalCalls, approvalEvents } from './approvalsContract';
import { attachmentCalls } from './attachmentsContract';
import { autopilotCalls, autopilotEvents } from './autopilotContract';
import { boardCalls } from './boardContract';
import { chatCalls, chatEvents } from './chatContract';
import { continuityCalls, continuityEvents } from './continuityContract';
import { conversationCalls, conversationEvents } from './conversationsContract';
import { draftCalls } from './draftsContract';
import { exportCalls } from './exportContract';
import { folderCalls, folderEvents } from './foldersContract';
import { instructionCalls } from './instructionsContract';
import { ledgerCalls, ledgerEvents } from './ledgerContract';
import { mcpCalls, mcpEvents } from './mcpContract';
import { mcpCatalogCalls } from './mcpCatalogContract';
import { mcpAppsCalls, mcpAppsEvents, mcpStepCalls } from './mcpAppsContract';
import { mcpRootsCalls } from './mcpRootsContract';
import { noticeCalls, noticeEvents } from './noticesContract';
import { planCalls, planEvents } from './planContract';
import { providerCalls, providerEvents } from './providersContract';
import { questionCalls, questionEvents } from './questionsContract';
import { activityCalls, activityEvents, routineCalls, routineEvents } from './routinesContract';
import { stopCalls } from './stopContract';
import { taskCalls, taskEvents } from './tasksContract';
import { taskShareCalls, taskShareEvents } from './taskShareContract';
import { versionCalls, versionEvents } from './versionsContract';
import { workerCalls, workerEvents } from './workersContract';
import type { IpcResult } from './ipcResult';

export const calls = {
  ...appCalls,
  ...noticeCalls,
  ...conversationCalls,
  ...chatCalls,
  ...stopCalls,
  ...versionCalls,
  ...attachmentCalls,
  ...draftCalls,
  ...instructionCalls,
  ...taskCalls,
  ...exportCalls,
  ...ledgerCalls,
  ...workerCalls,
  ...questionCalls,
  ...autopilotCalls,
  ...providerCalls,
  ...mcpCalls,
  ...mcpCatalogCalls,
  ...approvalCalls,
  ...mcpAppsCalls,
  ...mcpStepCalls,
  ...mcpRootsCalls,
  ...folderCalls,
  ...continuityCalls,
  ...taskShareCalls,
  ...planCalls,
  ...boardCalls,
  ...routineCalls,
  ...activityCalls,
} as const;

export const events = {
  ...appEvents,
  ...noticeEvents,
  ...conversationEvents,
  ...chatEvents,
  ...versionEvents,
  ...taskEvents,
  ...ledgerEvents,
  ...workerEvents,
  ...questionEvents,
  ...autopilotEvents,
  ...providerEvents,
  ...mcpEvents,
  ...approvalEvents,
  ...mcpAppsEvents,
  ...folderEvents,
  ...continuityEvents,
  ...taskShareEvents,
  ...planEvents,
  ...routineEvents,
  ...activityEvents,
} as const;

export type Calls = typeof calls;
export type CallName = keyof Calls;
export type CallRequest<N extends CallName> = z.input<Calls[N]['request']>;
export type CallParams<N extends CallName> = z.output<Calls[N]['request']>;
export type CallResponse<N extends CallName> = z.output<Calls[N]['response']>;
export type Events = typeof events;
export type EventName = keyof Events;
export type EventPayload<E extends EventName> = z.output<Events[E]>;

export const callNames = Object.keys(calls) as CallName[];
export const eventNames = Object.keys(events) as EventName[];

export { IpcError, IpcErrorCode, type IpcResult } from './ipcResult';

/** What the renderer gets, whichever transport carries it. */
export interface StepwiseApi {
  invoke<N extends CallName>(name: N, params: CallRequest<N>): Promise<IpcResult<CallResponse<N>>>;
  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void;
}

export function isCallName(name: unknown): name is CallName {
  return typeof name === 'string' && Object.hasOwn(calls, name);
}

export function isEventName(name: unknown): name is EventName {
  return typeof name === 'string' && Object.hasOwn(events, name);
}

/** One line a person or a model can act on, e.g. `title: title must not be empty`. */
export function describeZodError(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const path = issue.path.map(String).join('.');
      return path ? `${path}: ${issue.message}` : issue.message;
    })
    .join('; ');
}
