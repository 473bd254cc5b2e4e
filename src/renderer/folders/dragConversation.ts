// Dragging a conversation onto a folder: what the drag carries, and where it may land.
import type { DragEvent } from 'react';

const DRAG_TYPE = 'application/x-stepwise-conversation';

/** Marks the drag of a conversation row (its id and its folder). */
export function startConversationDrag(event: DragEvent, conversation: { id: string; folderId: string | null }): void {
  event.dataTransfer.setData(DRAG_TYPE, JSON.stringify({ id: conversation.id, folderId: conversation.folderId }));
  event.dataTransfer.effectAllowed = 'move';
}

/** True while a conversation is dragged (its data can be read only on drop). */
export function isConversationDrag(event: DragEvent): boolean {
  return event.dataTransfer.types.includes(DRAG_TYPE);
}

/** The dropped conversation, or null for anything else (files, text). */
export function droppedConversation(event: DragEvent): { id: string; folderId: string | null } | null {
  try {
    const value: unknown = JSON.parse(event.dataTransfer.getData(DRAG_TYPE) || 'null');
    if (value && typeof value === 'object' && typeof (value as { id?: unknown }).id === 'string') {
      const { id, folderId } = value as { id: string; folderId?: unknown };
      return { id, folderId: typeof folderId === 'string' ? folderId : null };
    }
  } catch {
    // Not ours.
  }
  return null;
}

/** Where a drop lands: the folder of the row under the pointer (`data-drop-folder`), or none. */
export function dropFolderAt(target: EventTarget | null): string | null {
  const row = target instanceof Element ? target.closest('[data-drop-folder]') : null;
  return row?.getAttribute('data-drop-folder') || null;
}
