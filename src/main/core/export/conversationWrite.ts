// Stores a checked `stepwise.conversation` export as a new conversation, in one
// transaction: new ids everywhere, original times kept, so exporting it again gives the
// same file apart from ids and the times of the import. Any failure writes nothing.
import { randomUUID } from 'node:crypto';
import type { ConversationExport, ConversationExportMessage, TaskEventExport } from '../../../shared/exportFormat';
import type { ToolCall } from '../../../shared/domain';
import type { Db } from '../db/openDatabase';
import { conversationInserter, createConversationRepo } from '../conversations/conversationRepo';
import { createMessageRepo, type MessageAttachments } from '../conversations/messageRepo';
import { createTaskStore } from '../tasks/taskStore';
import { EXTERNAL_PREFIX } from '../tasks/taskService';
import { workerInserter } from '../agents/workerRepo';
import { createLedgerStore } from '../ledger/ledgerStore';
import { fileInFolder } from './folderImport';
import { placements } from '../versions/fileTree';
import { writeImportedPlans } from '../plans/planImport';
import { writeImportedInstructions } from '../instructions/instructionsImport';
import { importedPlumbing } from './importedKinds';

const ms = (iso: string): number => Date.parse(iso);
const msOrNull = (iso: string | null): number | null => (iso === null ? null : Date.parse(iso));

/** Files of the export already stored, by the export's message number, and how to link them. */
export interface ImportedFiles {
  links: MessageAttachments;
  ids: Map<number, string[]>;
}

/**
 * "Changed by <client>" of an imported task: the file has no such field, but the task's
 * last event names the MCP client when it made that change (a move is an event of the list).
 */
function sourceOfLast(events: readonly TaskEventExport[]): string | null {
  const actor = events.at(-1)?.actor ?? '';
  return actor.startsWith(EXTERNAL_PREFIX) ? actor.slice(EXTERNAL_PREFIX.length) : null;
}

export function writeImportedConversation(
  db: Db,
  data: ConversationExport,
  now: number,
  files?: ImportedFiles,
): { conversationId: string; title: string } {
  const insertConversation = conversationInserter(db);
  const insertWorker = workerInserter(db);
  const messages = createMessageRepo(db, undefined, files?.links);
  const tasks = createTaskStore(db);
  const ledger = createLedgerStore(db);

  const messageIds = new Map<number, number>();
  /** Where each message of the file went: the conversation or a worker's transcript. */
  const messageHome = new Map<number, string>();
  const writeMessages = (conversationId: string, list: ConversationExportMessage[]) => {
    const tree = placements(list);
    for (const message of list) {
      const place = tree.get(message.id)!;
      const stored = messages.insert({
        conversationId,
        role: message.role,
        content: message.content,
        createdAt: ms(message.createdAt),
        toolCalls: message.toolCalls as ToolCall[] | null,
        toolCallId: message.toolCallId,
        toolName: message.toolName,
        // Nothing is writing an imported reply any more.
        status: message.status === 'streaming' ? 'interrupted' : message.status,
        error: message.error,
        origin: message.origin,
        reasoning: message.reasoning ?? null,
        // A summary follows the messages it stands in for, which are already written.
        summaryThrough: message.summaryThrough ? (messageIds.get(message.summaryThrough) ?? null) : null,
        // Parents come first in the file, so theirs are already written.
        place: {
          parentId: place.parent === null ? null : messageIds.get(place.parent)!,
          chosen: place.chosen,
          shown: place.shown,
        },
        attachments: files?.ids.get(message.id),
        plumbing: importedPlumbing(message),
      });
      if (message.usage || message.model)
        messages.update(stored.id, { usage: message.usage ?? null, model: message.model ?? null });
      messageIds.set(message.id, stored.id);
      messageHome.set(message.id, conversationId);
    }
  };

  return db.transaction(() => {
    const conversationId = randomUUID();
    const source = data.conversation;
    insertConversation({
      id: conversationId,
      title: source.title,
      created_at: ms(source.createdAt),
      // Imported now: it sorts as recent activity, at the top of the sidebar.
      updated_at: now,
      pinned: source.pinned ? 1 : 0,
      title_source: source.titleSource,
      parent_id: null,
      autopilot: source.autopilot === null ? null : source.autopilot ? 1 : 0,
    });
    if (source.model) createConversationRepo(db).setModel(conversationId, source.model);
    fileInFolder(db, conversationId, source.folder, now);
    writeMessages(conversationId, data.messages);
    if (source.instructions?.trim()) {
      writeImportedInstructions(db, conversationId, source.instructions.trim(), now);
    }

    const workers = data.workers.map((worker) => ({ worker, id: randomUUID() }));
    for (const { worker, id } of workers) {
      const last = worker.messages.at(-1);
      insertConversation({
        id,
        title: worker.title,
        created_at: ms(worker.createdAt),
        updated_at: last ? ms(last.createdAt) : ms(worker.createdAt),
        pinned: 0,
        title_source: 'auto',
        parent_id: conversationId,
        autopilot: null,
      });
      writeMessages(id, worker.messages);
      // A worker cannot resume in another process: one that was still going is stopped.
      const unfinished = worker.status === 'queued' || worker.status === 'running';
      insertWorker({
        id,
        conversation_id: conversationId,
        number: worker.number,
        owner: worker.owner,
        task_seq: worker.taskId,
        description: worker.description,
        expected_output: worker.expectedOutput,
        status: unfinished ? 'stopped' : worker.status,
        result: worker.result,
        created_at: ms(worker.createdAt),
        finished_at: unfinished ? now : msOrNull(worker.finishedAt),
      });
    }

    const pendingEvents: Array<{ event: TaskEventExport; listId: number; taskId: number | null }> = [];
    const sortedLists = [...data.taskLists].sort((a, b) => a.id - b.id);
    const listIds = new Map<number, number>();
    for (const list of sortedLists) {
      const listId = tasks.createList(conversationId, ms(list.createdAt), msOrNull(list.closedAt));
      listIds.set(list.id, listId);
      const taskIds = new Map<number, number>();
      for (const task of list.tasks) {
        const taskId = tasks.insertTaskRow({
          list_id: listId,
          seq: task.id,
          title: task.title,
          description: task.description,
          active_form: task.activeForm,
          status: task.status,
          owner: task.owner,
          position: task.position,
          created_at: ms(task.createdAt),
          updated_at: ms(task.updatedAt),
          completed_at: msOrNull(task.completedAt),
          last_message_id: task.lastMessageId === null ? null : messageIds.get(task.lastMessageId)!,
          changed_by: sourceOfLast(task.events),
        });
        taskIds.set(task.id, taskId);
        for (const event of task.events) pendingEvents.push({ event, listId, taskId });
        for (const call of task.toolCalls) {
          // A call's card is where its result message is; without one, in its agent's transcript.
          const agentTranscript = workers.find(({ worker }) => worker.owner === call.agent)?.id ?? conversationId;
          ledger.insert({
            conversation_id: conversationId,
            transcript_id: call.messageId === null ? agentTranscript : messageHome.get(call.messageId)!,
            task_id: taskId,
            agent_id: call.agent,
            tool_call_id: call.toolCallId,
            message_id: call.messageId === null ? null : messageIds.get(call.messageId)!,
            name: call.name,
            arguments: call.arguments,
            outcome: call.outcome,
            started_at: ms(call.startedAt),
            ended_at: ms(call.endedAt),
            result: call.result,
          });
        }
      }
      for (const task of list.tasks) {
        tasks.setBlockers(
          taskIds.get(task.id)!,
          task.blockedBy.map((blocker) => taskIds.get(blocker)!),
        );
      }
      for (const event of list.events) pendingEvents.push({ event, listId, taskId: null });
    }
    // Events go in in their original order, so "what changed since" keeps its meaning.
    let lastEventId: number | null = null;
    for (const { event, listId, taskId } of pendingEvents.sort((a, b) => a.event.id - b.event.id)) {
      lastEventId = tasks.insertEventRow({
        listId,
        taskId,
        at: ms(event.at),
        actor: event.actor,
        kind: event.kind,
        before: event.before,
        after: event.after,
      });
    }
    writeImportedPlans(db, conversationId, source.planReview, data.planRevisions, listIds);
    // The model has nothing to be told about history that came with the file.
    if (lastEventId !== null) tasks.setNoticeMark(conversationId, lastEventId);
    return { conversationId, title: source.title };
  })();
}
