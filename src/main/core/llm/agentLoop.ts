// The agent loop of one conversation: request → stream → run the tool calls → repeat,
// until the model answers without tool calls, the round limit is reached, the user
// stops, or a request fails. Every finished assistant and tool message is stored as it
// completes; the streaming text is saved at least once a second.
import type { ChatError, Message, ToolCall } from '../../../shared/domain';
import type { Db } from '../db/openDatabase';
import type { EventBus } from '../ipc/eventBus';
import type { Settings } from '../../../shared/settings';
import { costOf } from '../../../shared/providers';
import { CANCELLED_BY_USER } from '../tools/toolRegistry';
import { REFUSAL_LIMIT, REFUSAL_NOTE } from '../tools/refusals';
import { outcomeOf, type ToolCallObserver, type ToolRunResult } from '../tools/toolTypes';
import { compactHistory } from './compactHistory';
import { tooLongError } from '../context/requestHistory';
import type { Connection, ConnectionSource } from './connection';
import { withUsageFallback } from './streamUsage';
import { ChatFailure, roundsError, toChatError, type ErrorContext } from './chatErrors';
import { createClient } from './openaiClient';
import { streamedEmitter } from './streamedEmitter';
import { createStreamFetch } from './streamFetch';
import { keptOf, newTurnState, streamTurn } from './streamTurn';
import { buildTurnRequest, type TurnRequestDeps } from './turnRequest';
import { decideTurn } from './turnOutcome';
import { reasoningOfTurn } from './turnState';
import { createThrottle } from './throttle';

export interface ChatEngineOptions {
  /** Until the response headers arrive (the SDK retries timeouts as well). */
  requestTimeoutMs: number;
  /** Longest silence in the middle of a streamed reply. */
  idleTimeoutMs: number;
  /** SDK retries for 429, 5xx, timeouts and connection errors. */
  maxRetries: number;
  /**
   * At most one `messages:streamed` per interval while streaming: 20 a second, the rate
   * the renderer shows streamed text at (STREAM_RENDER_MS). An event every frame cost the
   * host, the browser and the renderer more CPU for nothing shown (docs/performance.md).
   */
  emitIntervalMs: number;
  /** The streaming text reaches SQLite at least this often. */
  saveIntervalMs: number;
  titleTimeoutMs: number;
  log: (line: string) => void;
}

export const defaultEngineOptions: ChatEngineOptions = {
  requestTimeoutMs: 120_000,
  idleTimeoutMs: 120_000,
  maxRetries: 2,
  emitIntervalMs: 50,
  saveIntervalMs: 1000,
  titleTimeoutMs: 30_000,
  log: (line) => console.warn(line),
};

export interface LoopDeps extends TurnRequestDeps {
  db: Db;
  bus: EventBus;
  settings: { effective(): Settings };
  /** Which server and model a conversation's requests go to. */
  providers: ConnectionSource;
  options: ChatEngineOptions;
  /** Keeps a record of every tool call (the task ledger). */
  toolCalls?: ToolCallObserver;
}

export type LoopActivity = 'streaming' | 'tool';

export interface LoopRun {
  /** Where the transcript is stored (a worker's child conversation for a worker). */
  conversationId: string;
  agentId: string;
  /** The conversation tools and prompt providers act for (the parent, for a worker). */
  scopeId?: string;
  signal: AbortSignal;
  /** What the loop is doing now: waiting on the model, or running tools. */
  onActivity?: (activity: LoopActivity) => void;
  /** Receives a function that saves the partial reply at once (for shutdown), or null. */
  setFlush?: (flush: (() => void) | null) => void;
}

export { LENGTH_NOTE } from './turnOutcome';

/** The abort reason when Stepwise shuts down: the flush already saved the reply as interrupted. */
export const SHUTDOWN = 'shutdown';

export type LoopOutcome = { kind: 'complete' } | { kind: 'stopped' } | { kind: 'error'; error: ChatError };

export async function runAgentLoop(deps: LoopDeps, run: LoopRun): Promise<LoopOutcome> {
  const { messages, bus, tools, prompts, options } = deps;
  const { conversationId, agentId, signal } = run;
  const scopeId = run.scopeId ?? conversationId;
  const emit = (message: Message) => bus.emit('messages:changed', { conversationId, message });
  const settings = deps.settings.effective();
  const failed = (chatError: ChatError): LoopOutcome => {
    emit(
      messages.insert({ conversationId, role: 'assistant', content: '', status: 'error', error: chatError.message }),
    );
    return { kind: 'error', error: chatError };
  };

  let connection: Connection;
  let client: ReturnType<typeof createClient>['client'];
  let errorCtx: ErrorContext;
  try {
    connection = deps.providers.forConversation(scopeId, agentId === 'main' ? 'main' : 'worker');
    ({ client, ctx: errorCtx } = createClient(connection, {
      requestTimeoutMs: options.requestTimeoutMs,
      maxRetries: options.maxRetries,
      log: options.log,
      fetch: createStreamFetch({ idleTimeoutMs: options.idleTimeoutMs }),
    }));
  } catch (error) {
    if (error instanceof ChatFailure) return failed(error.chatError);
    return failed({
      kind: 'config',
      message: error instanceof Error ? error.message : String(error),
      retryable: false,
      settings: true,
    });
  }

  let refusals = 0;
  for (let round = 1; ; round++) {
    if (signal.aborted) return { kind: 'stopped' };
    await tools.prepare({ conversationId: scopeId, agentId, signal });
    if (signal.aborted) return { kind: 'stopped' };
    const { promptCtx, prompt, apiTools, toolTokens, history } = buildTurnRequest(deps, connection, {
      conversationId,
      scopeId,
      agentId,
    });
    let request = history();
    if (request.overThreshold) {
      // Near the window: the oldest turns become a summary. If that fails, the oldest
      // history is left out of this request instead (as trimming always did).
      try {
        const note = await compactHistory(deps, {
          conversationId,
          client,
          connection,
          temperature: settings.temperature,
          signal,
        });
        if (note) request = history();
      } catch (error) {
        if (signal.aborted) return { kind: 'stopped' };
        options.log(`[stepwise] compaction failed, trimming instead: ${toChatError(error, errorCtx).message}`);
      }
    }
    if (request.tooLong) {
      return failed(
        tooLongError(connection.model, request.tokens, connection.contextWindow, {
          count: apiTools?.length ?? 0,
          tokens: toolTokens,
        }),
      );
    }
    const apiMessages = request.messages;
    const row = messages.insert({ conversationId, role: 'assistant', content: '', status: 'streaming' });
    emit(row);

    const turn = newTurnState();
    const snapshot = (): Pick<Message, 'content' | 'toolCalls' | 'reasoning'> => {
      const calls = turn.calls.size ? turn.calls.calls() : null;
      return { content: turn.text, toolCalls: calls, reasoning: reasoningOfTurn(turn) };
    };
    const emitter = createThrottle(
      streamedEmitter(bus, row, snapshot, () => turn.think.rewrites),
      options.emitIntervalMs,
    );
    // The first save waits a whole interval: a reply that ends sooner (a tool call, a short
    // answer) is written once, at its end, not also as it starts.
    const saver = createThrottle(() => messages.update(row.id, snapshot()), options.saveIntervalMs, {
      leading: false,
    });
    const untrack = messages.trackLive(row.id, snapshot);
    run.setFlush?.(() => {
      saver.cancel();
      messages.update(row.id, {
        ...snapshot(),
        status: 'interrupted',
        error: 'Stepwise closed before the reply finished.',
      });
    });

    let end: Awaited<ReturnType<typeof streamTurn>>;
    run.onActivity?.('streaming');
    const params = {
      model: connection.model,
      temperature: settings.temperature,
      messages: apiMessages,
      tools: apiTools,
    };
    const streamOptions = {
      signal,
      onStarted: () => prompts.sent(promptCtx, prompt.contributors),
      onChange: () => {
        emitter.schedule();
        saver.schedule();
      },
    };
    try {
      end = await withUsageFallback(
        connection.streamUsage,
        (withUsage) =>
          streamTurn(
            client,
            withUsage ? { ...params, stream_options: { include_usage: true } } : params,
            turn,
            streamOptions,
          ),
        () => {
          options.log(`[stepwise] ${connection.profileName} rejected stream_options; asking without it from now on`);
          deps.providers.noStreamUsage(connection.profileId);
          connection = { ...connection, streamUsage: false };
        },
        () => !turn.text && !turn.calls.size,
      );
    } catch (error) {
      emitter.cancel();
      saver.cancel();
      untrack();
      run.setFlush?.(null);
      const chatError = toChatError(error, errorCtx);
      if (!(error instanceof ChatFailure))
        options.log(`[stepwise] chat request failed (${chatError.kind}): ${chatError.message}`);
      // A reply cut off mid-way keeps its text and reads as interrupted; others failed outright.
      const kept = keptOf(turn) !== 'nothing';
      const status = chatError.kind === 'dropped' || (chatError.kind === 'timeout' && kept) ? 'interrupted' : 'error';
      emit(messages.update(row.id, { ...snapshot(), status, error: chatError.message })!);
      return { kind: 'error', error: chatError };
    }
    emitter.cancel();
    saver.cancel();
    untrack();
    run.setFlush?.(null);

    const { content, toolCalls, reasoning } = snapshot();
    if (end.aborted && signal.reason === SHUTDOWN) return { kind: 'stopped' };
    if (end.aborted) {
      finishStopped(deps, conversationId, row.id, { content, reasoning }, toolCalls ?? []);
      return { kind: 'stopped' };
    }
    // Output limits, content filters and empty replies are kept, with a note saying so.
    const decision = decideTurn({
      finishReason: end.finishReason,
      content,
      toolCalls: toolCalls ?? [],
      reasoning: reasoning ?? null,
    });
    const usage = turn.usage && {
      promptTokens: turn.usage.prompt_tokens,
      completionTokens: turn.usage.completion_tokens,
      cost: costOf(connection.modelOptions, turn.usage.prompt_tokens, turn.usage.completion_tokens),
    };
    emit(
      messages.update(row.id, {
        content,
        toolCalls,
        reasoning,
        status: 'complete',
        error: decision.note,
        usage,
        model: connection.model,
      })!,
    );
    if (!toolCalls?.length) return { kind: 'complete' };

    run.onActivity?.('tool');
    const batch = toolCalls.map((c) => c.name);
    for (const call of toolCalls) {
      const record = deps.toolCalls?.started({
        scopeId,
        transcriptId: conversationId,
        agentId,
        toolCallId: call.id,
        name: call.name,
        arguments: call.arguments,
      });
      // A call the turn's outcome already answered (cut off at the output limit, or a
      // reply the provider's filter stopped) is not run.
      const given = decision.answered.get(call.id);
      const result: ToolRunResult & { notRun?: true } = signal.aborted
        ? { ok: false, content: CANCELLED_BY_USER, outcome: 'cancelled' }
        : given !== undefined
          ? { ok: false, content: given, outcome: 'error', notRun: true }
          : await tools.run(call.name, call.arguments, {
              conversationId: scopeId,
              agentId,
              signal,
              callId: call.id,
              transcriptId: conversationId,
              messageId: row.id,
              batch,
            });
      // The result and its ledger entry are stored together or not at all. Whatever
      // happened to the call's task meanwhile, the result is stored: it may have had its effect.
      const { message, recorded } = deps.db.transaction(() => {
        const content = record ? record.stored(result) : result.content;
        const stored = messages.insert({
          conversationId,
          role: 'tool',
          content,
          toolCallId: call.id,
          toolName: call.name,
          outcome: result.notRun ? 'not_run' : outcomeOf(result),
        });
        return { message: stored, recorded: record?.finished({ ...result, content }, stored.id) };
      })();
      emit(message);
      recorded?.();
      if (result.refused) refusals++;
    }
    if (signal.aborted) return { kind: 'stopped' };
    if (refusals >= REFUSAL_LIMIT) {
      emit(messages.insert({ conversationId, role: 'system', content: REFUSAL_NOTE, origin: 'system' }));
      return { kind: 'complete' };
    }
    if (!decision.goOn) return { kind: 'complete' };
    if (round >= settings.maxToolRounds) {
      const error = roundsError(settings.maxToolRounds);
      emit(messages.insert({ conversationId, role: 'system', content: error.message, origin: 'system' }));
      return { kind: 'error', error };
    }
  }
}

/** The partial reply stays, marked stopped; every call it made gets a result, in one transaction. */
function finishStopped(
  deps: LoopDeps,
  conversationId: string,
  rowId: number,
  reply: Pick<Message, 'content' | 'reasoning'>,
  calls: ToolCall[],
): void {
  const stored: Message[] = [];
  deps.db.transaction(() => {
    stored.push(deps.messages.update(rowId, { ...reply, toolCalls: calls.length ? calls : null, status: 'stopped' })!);
    for (const call of calls) {
      stored.push(
        deps.messages.insert({
          conversationId,
          role: 'tool',
          content: CANCELLED_BY_USER,
          toolCallId: call.id,
          toolName: call.name,
          outcome: 'cancelled',
        }),
      );
    }
  })();
  for (const message of stored) deps.bus.emit('messages:changed', { conversationId, message });
}
