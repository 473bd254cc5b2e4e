// Stores a checked `stepwise.conversation` export as a new conversation, in one
// transaction: new ids everywhere, original times kept, so exporting it again gives the
// same file apart from ids and the times of the import. Any failure writes nothing.
import { randomUUID } from 'node:crypto';
import type { ConversationExport, ConversationExportMessage, TaskEventExport } from '../../../shared/exportFormat';
import type { Db } from '../db/openDatabase';

const ms = (iso: string): number => Date.parse(iso);
const msOrNull = (iso: string | null): number | null => (iso === null ? null : Date.parse(iso));

export function writeImportedConversation(db: Db, data: ConversationExport, now: number): { conversationId: string; title: string } {
  const insertConversation = db.prepare(
    `INSERT INTO conversations (id, title, created_at, updated_at, pinned, title_source, parent_id, autopilot)
     VALUES (@id, @title, @created_at, @updated_at, @pinned, @title_source, @parent_id, @autopilot)`,
  );
  const insertMessage = db.prepare(
    `INSERT INTO messages (conversation_id, role, content, created_at, tool_calls, tool_call_id, tool_name, status, error, origin)
     VALUES (@conversation_id, @role, @content, @created_at, @tool_calls, @tool_call_id, @tool_name, @status, @error, @origin)`,
  );
  const insertList = db.prepare('INSERT INTO task_lists (conversation_id, created_at, closed_at) VALUES (?, ?, ?)');
  const insertTask = db.prepare(
    `INSERT INTO tasks (list_id, seq, title, description, active_form, status, owner, position, created_at, updated_at, completed_at, last_message_id)
     VALUES (@list_id, @seq, @title, @description, @active_form, @status, @owner, @position, @created_at, @updated_at, @completed_at, @last_message_id)`,
  );
  const insertDep = db.prepare('INSERT INTO task_deps (task_id, blocked_by_id) VALUES (?, ?)');
  const insertEvent = db.prepare(
    'INSERT INTO task_events (list_id, task_id, at, actor, kind, before, after) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  const insertNoticeMark = db.prepare('INSERT INTO task_notice_marks (conversation_id, event_id) VALUES (?, ?)');
  const insertWorker = db.prepare(
    `INSERT INTO workers (id, conversation_id, number, owner, task_seq, description, expected_output, status, result, created_at, finished_at)
     VALUES (@id, @conversation_id, @number, @owner, @task_seq, @description, @expected_output, @status, @result, @created_at, @finished_at)`,
  );

  const messageIds = new Map<number, number>();
  const writeMessages = (conversationId: string, messages: ConversationExportMessage[]) => {
    for (const message of messages) {
      const info = insertMessage.run({
        conversation_id: conversationId,
        role: message.role,
        content: message.content,
        created_at: ms(message.createdAt),
        tool_calls: message.toolCalls === null ? null : JSON.stringify(message.toolCalls),
        tool_call_id: message.toolCallId,
        tool_name: message.toolName,
        // Nothing is writing an imported reply any more.
        status: message.status === 'streaming' ? 'interrupted' : message.status,
        error: message.error,
        origin: message.origin,
      });
      messageIds.set(message.id, Number(info.lastInsertRowid));
    }
  };

  return db.transaction(() => {
    const conversationId = randomUUID();
    const source = data.conversation;
    insertConversation.run({
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
    writeMessages(conversationId, data.messages);

    const workers = data.workers.map((worker) => ({ worker, id: randomUUID() }));
    for (const { worker, id } of workers) {
      const last = worker.messages.at(-1);
      insertConversation.run({
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
      insertWorker.run({
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
    for (const list of sortedLists) {
      const listId = Number(insertList.run(conversationId, ms(list.createdAt), msOrNull(list.closedAt)).lastInsertRowid);
      const taskIds = new Map<number, number>();
      for (const task of list.tasks) {
        const info = insertTask.run({
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
        });
        const taskId = Number(info.lastInsertRowid);
        taskIds.set(task.id, taskId);
        for (const event of task.events) pendingEvents.push({ event, listId, taskId });
      }
      for (const task of list.tasks) {
        for (const blocker of task.blockedBy) insertDep.run(taskIds.get(task.id)!, taskIds.get(blocker)!);
      }
      for (const event of list.events) pendingEvents.push({ event, listId, taskId: null });
    }
    // Events go in in their original order, so "what changed since" keeps its meaning.
    let lastEventId: number | null = null;
    for (const { event, listId, taskId } of pendingEvents.sort((a, b) => a.event.id - b.event.id)) {
      const info = insertEvent.run(listId, taskId, ms(event.at), event.actor, event.kind, event.before, event.after);
      lastEventId = Number(info.lastInsertRowid);
    }
    // The model has nothing to be told about history that came with the file.
    if (lastEventId !== null) insertNoticeMark.run(conversationId, lastEventId);
    return { conversationId, title: source.title };
  })();
}
