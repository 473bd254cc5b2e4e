// A conversation as `stepwise.conversation` JSON: complete and lossless — every message
// column, every task list with tasks, dependencies and history, and the workers with
// their transcripts — so it can be imported again (conversationImport.ts).
import {
  CONVERSATION_FORMAT,
  CONVERSATION_VERSION,
  type ConversationExport,
  type ConversationExportMessage,
} from '../../../shared/exportFormat';
import { notFound } from '../ipc/dispatcher';
import { escapeBidiControlsInJson } from '../../../shared/bidi';
import type { ExportReader, ReadAttachment, ReadConversation, ReadList, ReadMessage, ReadWorker } from './exportReader';
import { eventNumbering, isoTime, listJson, taskJson, toolCallJson } from './tasksJson';
import { plansJson, type ReadPlans } from './planExport';
import { payloadFields } from '../../../shared/messageKinds';
import { plainKind } from '../conversations/messageRepo';

export interface ConversationSnapshot {
  conversation: ReadConversation;
  messages: ReadMessage[];
  lists: ReadList[];
  workers: Array<ReadWorker & { messages: ReadMessage[] }>;
  /** An attached file's bytes as base64, or null when it is gone (without it: null for every file). */
  fileData?: (file: ReadAttachment) => string | null;
  /** The "Review plans" choice and every plan revision. */
  plans?: ReadPlans;
}

export function readConversation(
  reader: ExportReader,
  conversationId: string,
  fileData?: ConversationSnapshot['fileData'],
): ConversationSnapshot {
  const conversation = reader.conversation(conversationId);
  if (!conversation) throw notFound(`Conversation ${conversationId}`);
  return {
    conversation,
    messages: reader.messages(conversationId),
    lists: reader.lists(conversationId, 'history'),
    workers: reader
      .workers(conversationId)
      .map((worker) => ({ ...worker, messages: reader.messages(worker.conversationId) })),
    fileData,
    plans: reader.plans(conversationId),
  };
}

export function conversationExport(snapshot: ConversationSnapshot, exportedAt: number): ConversationExport {
  // Messages are numbered 1..n across the file (the conversation first, then each
  // worker's transcript), so tasks can point at any of them without database ids.
  const numbers = new Map<number, number>();
  for (const message of [...snapshot.messages, ...snapshot.workers.flatMap((w) => w.messages)]) {
    numbers.set(message.id, numbers.size + 1);
  }
  // Versions are written only where there are some, so a straight conversation's file is as before.
  const branched = (messages: readonly ReadMessage[]) =>
    messages.some((m, i) => !m.shown || m.parentId !== (i ? messages[i - 1].id : null));
  const withVersions = (messages: readonly ReadMessage[]) => {
    const tree = branched(messages);
    return messages.map((message) => ({
      ...toMessage(message),
      ...(tree
        ? { parent: message.parentId === null ? null : (numbers.get(message.parentId) ?? null), shown: message.shown }
        : {}),
    }));
  };
  const toMessage = (message: ReadMessage): ConversationExportMessage => ({
    id: numbers.get(message.id)!,
    role: message.role,
    content: message.content,
    createdAt: isoTime(message.createdAt),
    toolCalls: message.toolCalls as ConversationExportMessage['toolCalls'],
    toolCallId: message.toolCallId,
    toolName: message.toolName,
    status: message.status,
    error: message.error,
    origin: message.origin,
    reasoning: message.reasoning ?? null,
    model: message.model,
    usage: message.usage,
    summaryThrough: message.summaryThrough === null ? null : (numbers.get(message.summaryThrough) ?? null),
    kind: message.kind ?? plainKind(message.role, message.summaryThrough),
    ...(message.plumbing ? { payload: payloadFields(message.plumbing) } : {}),
    ...(message.attachments?.length
      ? {
          attachments: message.attachments.map((file) => ({
            name: file.name,
            mimeType: file.mimeType,
            size: file.size,
            data: snapshot.fileData?.(file) ?? null,
          })),
        }
      : {}),
  });
  const toEvent = eventNumbering(
    snapshot.lists.flatMap((list) => [...list.events, ...list.tasks.flatMap((t) => t.events)]),
  );
  const { conversation } = snapshot;

  return {
    format: CONVERSATION_FORMAT,
    version: CONVERSATION_VERSION,
    exportedAt: isoTime(exportedAt),
    conversation: {
      id: conversation.id,
      title: conversation.title,
      titleSource: conversation.titleSource,
      pinned: conversation.pinned,
      autopilot: conversation.autopilot,
      createdAt: isoTime(conversation.createdAt),
      updatedAt: isoTime(conversation.updatedAt),
      model: conversation.model,
      ...(conversation.instructions ? { instructions: conversation.instructions } : {}),
      ...(conversation.folder ? { folder: conversation.folder } : {}),
      ...(snapshot.plans ? { planReview: snapshot.plans.mode } : {}),
    },
    messages: withVersions(snapshot.messages),
    taskLists: snapshot.lists.map((list) => ({
      ...listJson(list),
      tasks: list.tasks.map((task) => ({
        ...taskJson(task, toEvent),
        toolCalls: task.toolCalls.map((call) => ({
          ...toolCallJson(call),
          agent: call.agentId,
          toolCallId: call.toolCallId,
          messageId: call.messageId === null ? null : (numbers.get(call.messageId) ?? null),
        })),
        position: task.position,
        updatedAt: isoTime(task.updatedAt),
        lastMessageId: task.lastMessageId === null ? null : (numbers.get(task.lastMessageId) ?? null),
      })),
      events: list.events.map(toEvent),
    })),
    workers: snapshot.workers.map((worker) => ({
      number: worker.number,
      owner: worker.owner,
      taskId: worker.taskSeq,
      description: worker.description,
      expectedOutput: worker.expectedOutput,
      status: worker.status,
      result: worker.result,
      createdAt: isoTime(worker.createdAt),
      finishedAt: worker.finishedAt === null ? null : isoTime(worker.finishedAt),
      title: worker.title,
      messages: withVersions(worker.messages),
    })),
    ...(snapshot.plans ? { planRevisions: plansJson(snapshot.plans, isoTime) } : {}),
  };
}

export function conversationJson(snapshot: ConversationSnapshot, exportedAt: number): string {
  return `${escapeBidiControlsInJson(JSON.stringify(conversationExport(snapshot, exportedAt), null, 2))}\n`;
}
