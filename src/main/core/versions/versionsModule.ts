// Edit any message, keep every version: editing one of the user's messages or
// regenerating a reply adds a version beside the old one, and the conversation after it
// follows whichever version is shown. The chat engine runs the loops; this module decides
// where the new branch starts and flips the tree (versionTree.ts).
import type { ChatStatus, Message } from '../../../shared/domain';
import type { ConversationRepo } from '../conversations/conversationRepo';
import type { MessageRepo } from '../conversations/messageRepo';
import type { Db } from '../db/openDatabase';
import { AppError, notFound } from '../ipc/dispatcher';
import type { EventBus } from '../ipc/eventBus';
import type { ChatEngine } from '../llm/chatEngine';
import { createVersionTree, type TreeNode } from './versionTree';
import type { BranchLists } from '../tasks/branchLists';
import { faultPoint } from '../faults/faultPoints';
import type { HandlersFor } from '../../../shared/contract';
import type { versionCalls } from '../../../shared/versionsContract';

export interface VersionsDeps {
  db: Db;
  bus: EventBus;
  messages: MessageRepo;
  conversations: ConversationRepo;
  chat: Pick<ChatEngine, 'assertIdle' | 'beforeEdit' | 'branchChanged' | 'start' | 'status'>;
  /** Each branch keeps its own task list (tasks/branchLists.ts). */
  branches?: Pick<BranchLists, 'leave' | 'enter' | 'start' | 'announce'>;
}

type VersionCalls = HandlersFor<typeof versionCalls>;

/** Messages the user wrote (or Autopilot wrote for them) can be edited; Stepwise's own (plumbing) cannot. */
const editable = (node: Pick<TreeNode, 'role' | 'origin' | 'kind'>) =>
  node.kind === 'user' && (node.origin === 'user' || node.origin === 'auto');

export function createVersions(deps: VersionsDeps) {
  const { db, bus, messages, conversations, chat, branches } = deps;
  const tree = createVersionTree(db);

  /** A message of this conversation on its shown branch. */
  function shownNode(conversationId: string, messageId: number): TreeNode {
    const node = tree.node(messageId);
    if (!node || node.conversation_id !== conversationId) throw notFound(`Message ${messageId}`);
    if (!node.shown)
      throw new AppError(
        'conflict',
        'That version is not the one shown any more. Reload the conversation and try again.',
      );
    return node;
  }

  function announce(conversationId: string) {
    const summary = conversations.summary(conversationId);
    if (summary) bus.emit('conversations:changed', { id: conversationId, kind: 'updated', conversation: summary });
  }

  /** Runs the loop on the new branch; a run that wrote nothing gives the old version back. */
  function run(conversationId: string, parentId: number | null) {
    void chat.start(conversationId).then(() => {
      try {
        const restored = db.transaction(() => {
          const version = tree.restoreAfter(conversationId, parentId);
          if (version !== null) branches?.enter(conversationId, version);
          return version;
        })();
        if (restored === null) return;
        messages.forget(conversationId);
        bus.emit('messages:switched', { conversationId, messageId: restored });
        branches?.announce(conversationId);
      } catch {
        // The conversation was deleted meanwhile: nothing to restore.
      }
    });
  }

  /** A new version of one of the user's messages, sent again. */
  function edit(conversationId: string, messageId: number, content: string): Message {
    chat.assertIdle(conversationId);
    const target = shownNode(conversationId, messageId);
    if (!editable(target))
      throw new AppError('conflict', 'Only your own messages can be edited. Regenerate a reply instead.');
    chat.beforeEdit(conversationId);
    // The new version keeps the files of the one it is edited from.
    const attachments = messages.get(target.id)?.attachments?.map((file) => file.id);
    const message = db.transaction(() => {
      // The old branch keeps its list; the new one starts with the list as of the edited message.
      branches?.leave(conversationId, target.id);
      tree.hideAfter(conversationId, target.parent_id);
      tree.unchoose(conversationId, target.parent_id);
      branches?.start(conversationId, target.id, target.parent_id);
      return messages.insert({
        conversationId,
        role: 'user',
        content,
        origin: 'user',
        place: { parentId: target.parent_id, chosen: true, shown: true },
        attachments,
      });
    })();
    messages.forget(conversationId);
    bus.emit('messages:removed', { conversationId, fromId: target.id });
    conversations.touch(conversationId);
    bus.emit('messages:changed', { conversationId, message });
    branches?.announce(conversationId);
    announce(conversationId);
    void chat.start(conversationId);
    return message;
  }

  /** A new version of the reply to the user message before `messageId` (default: the last one). */
  function regenerate(conversationId: string, messageId?: number): ChatStatus {
    chat.assertIdle(conversationId);
    const branch = messages.all(conversationId);
    let end = branch.length;
    if (messageId !== undefined) {
      if (shownNode(conversationId, messageId).role === 'user') {
        throw new AppError('conflict', 'Only a reply can be regenerated. Edit your message instead.');
      }
      end = branch.findIndex((m) => m.id === messageId);
    }
    const userAt = branch.findLastIndex((m, i) => i < end && m.role === 'user');
    if (userAt < 0) throw new AppError('conflict', 'There is no message before this reply to answer again.');
    const question = branch[userAt];
    const first = branch[userAt + 1];
    if (first) {
      faultPoint('regenerate:before-hide');
      db.transaction(() => {
        // The old reply keeps its list; the new one starts with the list as of the question.
        branches?.leave(conversationId, first.id);
        tree.hideAfter(conversationId, question.id);
        faultPoint('regenerate:in-hide');
        tree.unchoose(conversationId, question.id);
        branches?.start(conversationId, question.id, question.id);
      })();
      faultPoint('regenerate:after-hide');
      messages.forget(conversationId);
      bus.emit('messages:removed', { conversationId, fromId: first.id });
      branches?.announce(conversationId);
    }
    run(conversationId, question.id);
    return chat.status(conversationId);
  }

  /** Shows version `index` (1-based) among the versions of `messageId`. */
  function showVersion(conversationId: string, messageId: number, index: number): Message {
    chat.assertIdle(conversationId);
    const node = shownNode(conversationId, messageId);
    const versions = messages.versionsOf(node);
    const target = versions[index - 1];
    if (target === undefined)
      throw new AppError(
        'invalid_request',
        `This message has ${versions.length} versions; there is no version ${index}.`,
      );
    if (target !== node.id) {
      faultPoint('version:before-switch');
      db.transaction(() => {
        branches?.leave(conversationId, node.id);
        tree.show(conversationId, node.parent_id, target);
        branches?.enter(conversationId, target);
        faultPoint('version:in-switch');
      })();
      faultPoint('version:after-switch');
      messages.forget(conversationId);
      bus.emit('messages:switched', { conversationId, messageId: target });
      branches?.announce(conversationId);
      chat.branchChanged(conversationId);
    }
    return messages.get(target)!;
  }

  const handlers: VersionCalls = {
    'chat:edit': ({ conversationId, messageId, content }) => edit(conversationId, messageId, content),
    'chat:editLast': ({ conversationId, content }) => {
      chat.assertIdle(conversationId);
      const last = messages.all(conversationId).findLast((m) => m.kind === 'user' && m.origin === 'user');
      if (!last) throw new AppError('conflict', 'There is no message of yours to edit yet.');
      return edit(conversationId, last.id, content);
    },
    'chat:regenerate': ({ conversationId, messageId }) => regenerate(conversationId, messageId),
    'messages:showVersion': ({ conversationId, messageId, index }) => showVersion(conversationId, messageId, index),
  };

  /**
   * A regenerate takes the old reply off the shown branch before its new reply is stored
   * (that waits for MCP servers and summaries). Killed in between, the host would leave
   * only the question shown: at start-up the old reply is shown again, with its own task
   * list (parked when the regenerate left it), in one transaction.
   */
  function recover(): number {
    return db.transaction(() => {
      const restored = tree.restoreOrphans();
      for (const { conversationId, versionId } of restored) branches?.enter(conversationId, versionId);
      return restored.length;
    })();
  }

  return { edit, regenerate, showVersion, recover, handlers };
}

export type Versions = ReturnType<typeof createVersions>;
