// One MCP server per connected client: the task-share tools and the subscribable
// `stepwise://tasks/<conversationId>` resources. The same server is served over HTTP by
// the running app and, read-only (no writer), by the stdio fallback.
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  ErrorCode,
  McpError,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { externalWho, type Who } from '../tasks/taskService';
import type { Checked } from '../tasks/taskRules';
import { SHARE_STATUSES, TASK_RESOURCE_PREFIX, taskResourceUri, type ShareReader } from './shareReader';
import { unknownConversation, type ShareWriter } from './shareWriter';
import { FilterTooLong } from './filterWords';
import { oneCallPerTurn } from './shareTurns';

export const READ_ONLY_ERROR =
  'Stepwise is not running; task lists are read-only. Start Stepwise (with sharing on) to change them.';

export interface ShareServerDeps {
  reader: ShareReader;
  /** Null when Stepwise is not running: write tools answer READ_ONLY_ERROR. */
  writer: ShareWriter | null;
  version: string;
}

const ConversationIdArg = z.string().describe('The conversation id (from list_task_lists).');
const TaskIdArg = z.number().int().min(1).describe('The task number within its list (1, 2, 3…).');

/** A client's name from `initialize`, made safe to show and record: "claude-code". */
export function clientNameOf(raw: string | undefined): string {
  // oxlint-disable-next-line no-control-regex -- control characters are what is removed
  const controls = /[\u0000-\u001f\u007f]/g;
  const clean = (raw ?? '').replace(controls, '').trim().slice(0, 64);
  return clean || 'unknown-client';
}

const json = (value: unknown): CallToolResult => ({
  content: [{ type: 'text', text: JSON.stringify(value, null, 2) }],
});
const refusal = (text: string): CallToolResult => ({ content: [{ type: 'text', text }], isError: true });

/** Shared by every session's server: one share call per turn of the event loop, whoever sends it. */
const nextShareTurn = oneCallPerTurn();

export function createShareServer(deps: ShareServerDeps) {
  const { reader, writer } = deps;
  const server = new McpServer(
    { name: 'stepwise-tasks', version: deps.version },
    {
      capabilities: { resources: { subscribe: true, listChanged: true } },
      instructions:
        "Stepwise's task lists, shared live. Read with list_task_lists / get_task_list; change tasks with update_task, add_task, reorder_tasks; start a new list with create_task_list. Every change is shown to the user as made by you.",
    },
  );
  const subscriptions = new Set<string>();
  const who = (): Who => externalWho(clientNameOf(server.server.getClientVersion()?.name));

  /** Milliseconds the tools and resources of this client took (the endpoint's limits count them). */
  let work = 0;
  function timed<A extends unknown[], R>(body: (...args: A) => R): (...args: A) => Promise<R> {
    return async (...args) => {
      await nextShareTurn();
      const started = performance.now();
      try {
        return body(...args);
      } finally {
        work += performance.now() - started;
      }
    };
  }

  /** Writes need the running app. */
  function guarded<A>(write: boolean, body: (args: A) => CallToolResult): (args: A) => Promise<CallToolResult> {
    return timed((args: A) => {
      if (write && !writer) return refusal(READ_ONLY_ERROR);
      return body(args);
    });
  }
  const answer = <T>(result: Checked<T>) => (result.ok ? json(result.value) : refusal(result.error));

  server.registerTool(
    'list_task_lists',
    {
      title: 'List task lists',
      description:
        'Conversations with an open task list, newest activity first, with k/N progress and the task in progress. Filters as on the board.',
      inputSchema: {
        status: z.enum(SHARE_STATUSES).optional().describe('Only lists with a task of this status.'),
        folder: z
          .string()
          .max(200)
          .optional()
          .describe('Only conversations in this folder (any case); "" for those in no folder.'),
        text: z
          .string()
          .max(500)
          .optional()
          .describe(
            'Words to find in the conversation title or a task title (any case; at most 16 words, 200 characters).',
          ),
        includeCompleted: z.boolean().optional().describe('Also lists whose tasks are all finished (default false).'),
        limit: z.number().int().min(1).max(500).optional().describe('At most this many lists (default 50).'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    guarded(false, (args) => {
      try {
        return json({ lists: reader.summaries(args) });
      } catch (error) {
        if (error instanceof FilterTooLong) return refusal(error.message);
        throw error;
      }
    }),
  );

  server.registerTool(
    'get_task_list',
    {
      title: 'Get a task list',
      description:
        "One conversation's open task list: each task's status (blocked when a blocker is unfinished), owner, blockers and tool-call count.",
      inputSchema: { conversationId: ConversationIdArg },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    guarded(false, ({ conversationId }: { conversationId: string }) => {
      const list = reader.list(conversationId);
      return list ? json(list) : refusal(unknownConversation(conversationId));
    }),
  );

  server.registerTool(
    'update_task',
    {
      title: 'Update a task',
      description:
        "Changes a task's status and/or title, under the same rules as the user's edits in Stepwise (a blocked task cannot start, titles are 1-200 characters).",
      inputSchema: {
        conversationId: ConversationIdArg,
        taskId: TaskIdArg,
        status: z.enum(['pending', 'in_progress', 'completed', 'cancelled']).optional(),
        title: z.string().optional(),
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    guarded(
      true,
      ({
        conversationId,
        taskId,
        status,
        title,
      }: {
        conversationId: string;
        taskId: number;
        status?: string;
        title?: string;
      }) => answer(writer!.updateTask(who(), conversationId, taskId, { status, title })),
    ),
  );

  server.registerTool(
    'add_task',
    {
      title: 'Add a task',
      description: "Adds a pending task at the end of the conversation's list (starting a list if it has none).",
      inputSchema: {
        conversationId: ConversationIdArg,
        title: z.string(),
        description: z.string().max(2000).optional(),
        blockedBy: z.array(TaskIdArg).max(50).optional().describe('Tasks that must be completed first.'),
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    guarded(
      true,
      ({
        conversationId,
        ...input
      }: {
        conversationId: string;
        title: string;
        description?: string;
        blockedBy?: number[];
      }) => answer(writer!.addTask(who(), conversationId, input)),
    ),
  );

  server.registerTool(
    'reorder_tasks',
    {
      title: 'Reorder tasks',
      description: 'Puts the tasks in a new order; `order` must name every task of the list exactly once.',
      inputSchema: { conversationId: ConversationIdArg, order: z.array(TaskIdArg).max(200) },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    guarded(true, ({ conversationId, order }: { conversationId: string; order: number[] }) =>
      answer(writer!.reorderTasks(who(), conversationId, order)),
    ),
  );

  server.registerTool(
    'create_task_list',
    {
      title: 'Create a task list',
      description:
        'Makes a new Stepwise conversation with this title holding a task list, filed in a folder when one is named (made if missing).',
      inputSchema: {
        title: z.string().describe("The new conversation's title."),
        tasks: z.array(z.string()).max(200).describe('Task titles, in order.'),
        folder: z.string().optional(),
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    guarded(true, (input: { title: string; tasks: string[]; folder?: string }) =>
      answer(writer!.createTaskList(who(), input)),
    ),
  );

  server.registerResource(
    'task-list',
    new ResourceTemplate(`${TASK_RESOURCE_PREFIX}{conversationId}`, {
      list: timed(() => ({
        resources: reader.summaries({ limit: 500 }).map((s) => ({
          uri: taskResourceUri(s.conversationId),
          name: s.title,
          mimeType: 'application/json',
          description: `${s.progress} tasks done`,
        })),
      })),
    }),
    {
      title: 'Task list',
      description: "A conversation's open task list (subscribe for changes).",
      mimeType: 'application/json',
    },
    timed((uri: URL, variables: Record<string, string | string[]>) => {
      const id = String(variables.conversationId);
      const list = reader.list(id);
      if (!list) throw new McpError(ErrorCode.InvalidParams, unknownConversation(id));
      return { contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(list, null, 2) }] };
    }),
  );

  server.server.setRequestHandler(SubscribeRequestSchema, (request) => {
    const { uri } = request.params;
    if (!uri.startsWith(TASK_RESOURCE_PREFIX))
      throw new McpError(
        ErrorCode.InvalidParams,
        `Only ${TASK_RESOURCE_PREFIX}<conversationId> resources can be subscribed to.`,
      );
    const id = uri.slice(TASK_RESOURCE_PREFIX.length);
    if (!reader.conversationOf(id)) throw new McpError(ErrorCode.InvalidParams, unknownConversation(id));
    subscriptions.add(uri);
    return {};
  });
  server.server.setRequestHandler(UnsubscribeRequestSchema, (request) => {
    subscriptions.delete(request.params.uri);
    return {};
  });

  return {
    server,
    /** The milliseconds this client's calls have taken so far. */
    work: () => work,
    /** Tells this client a list changed, when it subscribed to it. */
    listChanged(conversationId: string): void {
      const uri = taskResourceUri(conversationId);
      if (subscriptions.has(uri)) void server.server.sendResourceUpdated({ uri }).catch(() => {});
    },
    /** Tells this client the set of lists changed (one was made or deleted). */
    resourcesChanged(): void {
      if (server.isConnected()) void server.server.sendResourceListChanged().catch(() => {});
    },
  };
}

export type ShareServer = ReturnType<typeof createShareServer>;
