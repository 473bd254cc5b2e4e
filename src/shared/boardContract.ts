// The task board's calls: every open task list across conversations, filtered and paged
// (docs/task-lists.md, "Task board"). Edits go through the existing `tasks:*` calls; its
// export is `board:export` in exportContract.ts.
import { z } from 'zod';
import { ConversationId } from './domain';
import { FolderId } from './folders';
import { TaskList } from './tasks';
import { call } from './contract';

export const BOARD_TEXT_MAX = 200;
export const BOARD_PAGE_MAX = 500;

export const BoardStatusFilter = z.enum(['in_progress', 'pending', 'blocked', 'completed'], {
  error: 'status must be one of in_progress, pending, blocked, completed',
});

export const BoardFilter = z.strictObject({
  statuses: z.array(BoardStatusFilter).max(4, { error: 'at most 4 statuses' }).default([]),
  folderId: FolderId.nullable().default(null),
  text: z
    .string({ error: 'text must be text' })
    .max(BOARD_TEXT_MAX, { error: `text must be at most ${BOARD_TEXT_MAX} characters` })
    .default(''),
  showCompleted: z.boolean().default(false),
});
export type BoardFilter = z.output<typeof BoardFilter>;

/** One conversation's open list as the board shows it; `list` holds every task, the filter picks. */
export const BoardGroup = z.object({
  conversationId: ConversationId,
  title: z.string(),
  folder: z.object({ id: FolderId, name: z.string() }).nullable(),
  /** Newest of the conversation's activity and its list's changes (ms). */
  activityAt: z.number().int(),
  list: TaskList,
});
export type BoardGroup = z.infer<typeof BoardGroup>;

export const boardCalls = {
  /** Open task lists across conversations, newest activity first: `total` of them match. */
  'board:list': call(
    z.strictObject({
      filter: BoardFilter.default({ statuses: [], folderId: null, text: '', showCompleted: false }),
      offset: z.number().int().min(0).default(0),
      limit: z.number().int().min(1).max(BOARD_PAGE_MAX).default(100),
    }),
    z.object({ total: z.number().int(), groups: z.array(BoardGroup) }),
  ),
  /** One conversation's group, or null when the board would not list it under the filter. */
  'board:group': call(
    z.strictObject({ conversationId: ConversationId, filter: BoardFilter }),
    z.object({ group: BoardGroup.nullable() }),
  ),
} as const;
