// Tool calls that wait for the user: "Allow once", "Always allow" or "Deny". A pending
// call is stored in SQLite so a restart can tell the model it was not run. Nothing here
// approves by itself (Autopilot included): only `answer` does, and only a person calls it.
import { randomUUID } from 'node:crypto';
import type { Approval, ApprovalDecision } from '../../../shared/mcp';
import type { MessageRepo } from '../conversations/messageRepo';
import type { Db } from '../db/openDatabase';
import { notFound } from '../ipc/dispatcher';
import type { EventBus } from '../ipc/eventBus';
import type { Questions } from '../questions/questionModule';
import type { HandlersFor } from '../../../shared/contract';
import type { approvalCalls } from '../../../shared/approvalsContract';

export const DENIED = 'The user denied this call; it did not run.';
export const NOT_RUN_AFTER_RESTART =
  'Not run: Stepwise closed while this call was waiting for the user’s approval. The user has not approved it; ask again if it is still needed.';

export type ApprovalRequest = Omit<Approval, 'id' | 'createdAt' | 'agentLabel'>;
/** Says whether the user granted this call in advance (a routine's ticked tools, in its runs only). */
export type PreApproval = (request: ApprovalRequest) => boolean;
export type ApprovalAnswer = ApprovalDecision | 'cancelled';

interface Row {
  id: string;
  conversation_id: string;
  transcript_id: string;
  agent_id: string;
  tool_call_id: string;
  tool_name: string;
  server: string;
  tool: string;
  arguments: string;
  created_at: number;
}

/** "Worker 2" for `worker-2`; the conversation's own agent is "The assistant". */
export function agentLabel(agentId: string): string {
  const worker = /^worker-(\d+)$/.exec(agentId);
  if (worker) return `Worker ${worker[1]}`;
  return agentId === 'main' ? 'The assistant' : agentId;
}

function toApproval(row: Row): Approval {
  return {
    id: row.id,
    conversationId: row.conversation_id,
    transcriptId: row.transcript_id,
    agentId: row.agent_id,
    agentLabel: agentLabel(row.agent_id),
    toolCallId: row.tool_call_id,
    toolName: row.tool_name,
    server: row.server,
    tool: row.tool,
    arguments: row.arguments,
    createdAt: row.created_at,
  };
}

/** The asking agent as the question banner names it: "Assistant", "Worker 2". */
function askerName(agentId: string): string {
  return agentId === 'main' ? 'Assistant' : agentLabel(agentId);
}

const DECISIONS: ReadonlySet<string> = new Set<ApprovalDecision>(['once', 'always', 'deny']);

function prettyArguments(json: string): string {
  try {
    return JSON.stringify(JSON.parse(json), null, 2);
  } catch {
    return json;
  }
}

export function createApprovals(deps: {
  db: Db;
  bus: EventBus;
  messages: MessageRepo;
  /** The question banner: a waiting call is also a question with the same three answers. */
  questions?: Questions;
  now?: () => number;
}) {
  const { db, bus, messages } = deps;
  const now = deps.now ?? Date.now;
  const waiting = new Map<string, (answer: ApprovalAnswer) => void>();
  /** Takes the banner's question away once the call is answered another way. */
  const questionsOf = new Map<string, AbortController>();
  const grants = new Set<PreApproval>();
  let closed = false;
  const insert = db.prepare(
    `INSERT INTO tool_approvals (id, conversation_id, transcript_id, agent_id, tool_call_id, tool_name, server, tool, arguments, created_at)
     VALUES (@id, @conversation_id, @transcript_id, @agent_id, @tool_call_id, @tool_name, @server, @tool, @arguments, @created_at)`,
  );
  const remove = db.prepare('DELETE FROM tool_approvals WHERE id = ?');
  const byId = db.prepare<[string], Row>('SELECT * FROM tool_approvals WHERE id = ?');
  const byConversation = db.prepare<[string], Row>(
    'SELECT * FROM tool_approvals WHERE conversation_id = ? ORDER BY created_at, rowid',
  );
  const everything = db.prepare<[], Row>('SELECT * FROM tool_approvals ORDER BY created_at, rowid');

  function list(conversationId: string): Approval[] {
    return byConversation.all(conversationId).map(toApproval);
  }

  function changed(conversationId: string): void {
    try {
      bus.emit('approvals:changed', { conversationId, approvals: list(conversationId) });
    } catch {
      // The database is closing: nobody is left to tell.
    }
  }

  function settle(id: string, answer: ApprovalAnswer): Approval | null {
    const row = byId.get(id);
    remove.run(id);
    const resolve = waiting.get(id);
    waiting.delete(id);
    resolve?.(answer);
    questionsOf.get(id)?.abort();
    questionsOf.delete(id);
    if (row) changed(row.conversation_id);
    return row ? toApproval(row) : null;
  }

  /**
   * Calls left waiting by a process that ended get a "not run" result, so the card shows
   * it and the model reads it on its next request. Returns how many there were.
   */
  function recover(): number {
    const rows = everything.all();
    if (!rows.length) return 0;
    db.transaction(() => {
      for (const row of rows) {
        const answered = messages
          .all(row.transcript_id)
          .some((m) => m.role === 'tool' && m.toolCallId === row.tool_call_id);
        if (!answered) {
          messages.insert({
            conversationId: row.transcript_id,
            role: 'tool',
            content: NOT_RUN_AFTER_RESTART,
            toolCallId: row.tool_call_id,
            toolName: row.tool_name,
            outcome: 'not_run',
          });
        }
        remove.run(row.id);
      }
    })();
    return rows.length;
  }

  /** The same decision through the banner (main view and the worker's view). */
  function ask(id: string, request: ApprovalRequest): void {
    if (!deps.questions) return;
    const controller = new AbortController();
    questionsOf.set(id, controller);
    void deps.questions
      .ask({
        conversationId: request.conversationId,
        agentId: request.agentId,
        agentName: askerName(request.agentId),
        workerId: request.transcriptId !== request.conversationId ? request.transcriptId : null,
        text: `${askerName(request.agentId)} wants to run ${request.toolName}`,
        actions: [
          { id: 'once', label: 'Allow once', tone: 'primary' },
          { id: 'always', label: 'Always allow' },
          { id: 'deny', label: 'Deny', tone: 'danger' },
        ],
        details: [
          { label: 'Tool', value: request.tool },
          { label: 'Server', value: request.server },
          { label: 'Arguments', value: prettyArguments(request.arguments) },
        ],
        signal: controller.signal,
        toolCallId: request.toolCallId,
      })
      .then((outcome) => {
        if (outcome.kind === 'action' && DECISIONS.has(outcome.actionId) && waiting.has(id)) {
          settle(id, outcome.actionId as ApprovalDecision);
        }
      });
  }

  const approvals = {
    recover,
    list,
    /** Whether anything in the conversation (main agent or a worker) waits for the user. */
    pending: (conversationId: string) => byConversation.all(conversationId).length > 0,
    /** Waits for the user. Resolves `cancelled` when the run is stopped another way. */
    request(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalAnswer> {
      if (signal.aborted) return Promise.resolve('cancelled');
      // Granted once, in advance, by the user: nothing to ask (and nothing stored to recover).
      for (const granted of grants) if (granted(request)) return Promise.resolve('once');
      const id = randomUUID();
      insert.run({
        id,
        conversation_id: request.conversationId,
        transcript_id: request.transcriptId,
        agent_id: request.agentId,
        tool_call_id: request.toolCallId,
        tool_name: request.toolName,
        server: request.server,
        tool: request.tool,
        arguments: request.arguments,
        created_at: now(),
      });
      const answer = new Promise<ApprovalAnswer>((resolve) => waiting.set(id, resolve));
      const onAbort = () => {
        // Shutdown: the row stays, so the next start reports the call as not run.
        if (!closed) return void settle(id, 'cancelled');
        waiting.get(id)?.('cancelled');
        waiting.delete(id);
        questionsOf.get(id)?.abort();
        questionsOf.delete(id);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      changed(request.conversationId);
      ask(id, request);
      return answer.finally(() => signal.removeEventListener('abort', onAbort));
    },
    answer(id: string, decision: ApprovalDecision): Approval {
      if (!waiting.has(id)) throw notFound('That approval request (it was already answered or its call has ended)');
      return settle(id, decision)!;
    },
    /** After "Always allow": other calls of the same tool of the same server waiting anywhere run too. */
    allowWaiting(server: string, tool: string): number {
      const ids = everything
        .all()
        .filter((row) => row.server === server && row.tool === tool && waiting.has(row.id))
        .map((row) => row.id);
      for (const id of ids) settle(id, 'once');
      return ids.length;
    },
    /** Stop: every call waiting in the conversation (its workers' too) is denied. */
    denyAll(conversationId: string): number {
      const ids = byConversation.all(conversationId).map((row) => row.id);
      for (const id of ids) settle(id, 'deny');
      return ids.length;
    },
    /** Another module's advance grants (routines): a call one of them grants runs without a prompt. Returns the remover. */
    grantInAdvance(granted: PreApproval): () => void {
      grants.add(granted);
      return () => void grants.delete(granted);
    },
    /** Shutdown: the rows stay, so the next start reports the calls as not run. */
    dispose(): void {
      closed = true;
    },
  };

  const handlers: HandlersFor<typeof approvalCalls> = {
    'approvals:list': ({ conversationId }) => approvals.list(conversationId),
    'approvals:answer': ({ id, decision }) => approvals.answer(id, decision),
  };
  return { ...approvals, handlers };
}

export type Approvals = ReturnType<typeof createApprovals>;
