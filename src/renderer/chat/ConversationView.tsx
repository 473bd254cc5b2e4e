import { useCallback, useEffect, useMemo, useState } from 'react';
import type { Conversation } from '../../shared/domain';
import { call, useApi, useEvent } from '../api/apiContext';
import { useGuard } from '../common/toasts';
import { InlineRename } from '../common/InlineRename';
import { useMessages } from './useMessages';
import { useChatStatus } from './useChatStatus';
import { MessageList } from './MessageList';
import { Composer } from './Composer';
import { ChatErrorBanner } from './ChatErrorBanner';
import { TaskHeader } from '../tasks/TaskHeader';
import { ConversationSettingsButton } from '../instructions/ConversationSettings';
import { useWorkers } from '../agents/useWorkers';
import { WorkerStrip } from '../agents/WorkerStrip';
import { WorkerView } from '../agents/WorkerView';
import { useAutopilot } from '../agents/useAutopilot';
import { AutopilotNotice, AutopilotToggle } from '../agents/Autopilot';
import { ModelPicker } from '../providers/ModelPicker';
import { UsageTotal } from './usage';
import { useQuestions } from '../questions/useQuestions';
import { QuestionBanners } from '../questions/QuestionBanner';
import { ApprovalsContext, useApprovals } from '../approvals/useApprovals';
import { onlyWaitingForYou, runState, stoppedLast } from '../tasks/runState';
import { useContinuity } from '../tasks/useContinuity';
import '../tasks/taskHints.css';
import { revealBidiControls } from '../../shared/bidi';
import { showVersion } from '../versions/showVersion';
import { PlanReviewModeSelect } from '../plans/PlanReviewMode';
import { usePlanState } from '../plans/usePlanState';
import { PlanCallsContext } from '../plans/planCalls';
import { useConnectionState } from '../common/connectionStore';
import type { PlanCall, PlanReviewMode } from '../../shared/planContract';
import { useRequest } from '../navigation/navigation';

const NO_CALLS: readonly PlanCall[] = [];
import './conversation.css';

export function ConversationView(props: { id: string; onMissing: () => void; onOpenSettings: () => void }) {
  const api = useApi();
  const guard = useGuard();
  const [conversation, setConversation] = useState<Conversation | null>(null);
  const [renaming, setRenaming] = useState(false);
  const [scrollTarget, setScrollTarget] = useState<{ id: number; nonce: number; transcriptId: string } | null>(null);
  const { messages, loaded, hasOlder, loadOlder, loadUntil } = useMessages(props.id);
  const status = useChatStatus(props.id);
  const conversationId = props.id;
  const workers = useWorkers(props.id);
  const [workerId, setWorkerId] = useState<string | null>(null);
  const selectedWorker = workers.find((w) => w.id === workerId) ?? null;
  const autopilot = useAutopilot(props.id);
  const questions = useQuestions(props.id);
  const approvals = useApprovals(
    props.id,
    workers.map((w) => w.id),
  );
  const plan = usePlanState(props.id);
  const planCalls = plan?.calls ?? NO_CALLS;
  const planWaiting = useMemo(
    () => planCalls.filter((c) => c.state === 'waiting_for_plan').map((c) => c.agentId),
    [planCalls],
  );
  const anyWorkerActive = workers.some((w) => w.status === 'running' || w.status === 'queued');
  const restarted = useConnectionState() === 'restarted';
  const busy = !restarted && (status.running || anyWorkerActive || !!autopilot?.checking);
  // Workers whose calls wait for the plan's approval wait for the user: the review card may open.
  const reviewBusy =
    status.running ||
    !!autopilot?.checking ||
    workers.some((w) => w.status === 'queued' || (w.status === 'running' && !planWaiting.includes(w.owner)));
  const mainStopped = useMemo(() => stoppedLast(messages), [messages]);
  const continuity = useContinuity(conversationId);
  const [continueOffered, setContinueOffered] = useState(false);
  const agentsNow = { mainRunning: status.running, mainStopped, autopilot, workers, questions, planWaiting };
  const onlyWaiting = onlyWaitingForYou(agentsNow);

  useEffect(() => {
    call(api, 'conversations:get', { id: props.id }).then(setConversation, props.onMissing);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [api, props.id]);

  // Scroll to and highlight a message once loaded (a search result, a task on the board).
  const [focus, setFocus] = useState<{ id: number; nonce: number } | null>(null);
  useRequest('showMessage', props.id, ({ messageId }) => setFocus({ id: messageId, nonce: Date.now() }));
  useEffect(() => {
    if (!focus || !loaded) return;
    void loadUntil(focus.id).then(() => setScrollTarget({ ...focus, transcriptId: conversationId }));
  }, [focus, loaded, loadUntil, conversationId]);

  useRequest('rename', props.id, () => setRenaming(true));

  useEvent(
    'conversations:changed',
    (change) => {
      if (change.id !== props.id) return;
      if (change.kind === 'deleted') props.onMissing();
      else if (change.conversation) setConversation(change.conversation);
    },
    [props.id],
  );

  const setReviewMode = (mode: PlanReviewMode) => void guard(() => call(api, 'plan:setMode', { conversationId, mode }));

  const stop = useCallback(
    () => void guard(() => call(api, 'chat:stop', { conversationId })),
    [api, guard, conversationId],
  );

  useEffect(() => {
    // In a worker's view Esc goes back instead (the worker view handles it).
    if (!busy || selectedWorker) return;
    const onKey = (event: KeyboardEvent) => {
      // Esc inside a menu, dialog or editor closes that first.
      if (event.key === 'Escape' && !event.defaultPrevented) stop();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [busy, selectedWorker, stop]);

  // Shown while the conversation loads too, so what is typed right after a switch lands here.
  const composer = (
    <Composer
      draftId={conversationId}
      hidden={!!selectedWorker}
      running={busy}
      onStop={stop}
      model={conversation?.model}
      onSend={async (content, attachments) => {
        const sent = await guard(() =>
          call(api, 'messages:send', { conversationId, content, ...(attachments.length ? { attachments } : {}) }),
        );
        return sent !== undefined;
      }}
      onSendPrompt={async (prompt) =>
        (await guard(() => call(api, 'mcp:sendPrompt', { conversationId, ...prompt }))) ?? null
      }
    />
  );

  if (!conversation) {
    return (
      <section className="conversation" aria-label="Loading conversation" aria-busy="true">
        <div className="loading" />
        {composer}
      </section>
    );
  }

  return (
    <ApprovalsContext.Provider value={approvals}>
      <PlanCallsContext.Provider value={planCalls}>
        <section className="conversation" aria-label={conversation.title}>
          <header className="conversation-header">
            {renaming ? (
              <InlineRename
                initial={conversation.title}
                label="Conversation title"
                className="title-rename"
                onDone={(title) => {
                  setRenaming(false);
                  if (title && title !== conversation.title) {
                    void guard(() => call(api, 'conversations:rename', { id: conversation.id, title }));
                  }
                }}
              />
            ) : (
              <h1 className="conversation-heading">
                <button
                  type="button"
                  className="title-button"
                  aria-label={`Rename “${conversation.title}”`}
                  onClick={() => setRenaming(true)}
                >
                  {revealBidiControls(conversation.title)}
                </button>
              </h1>
            )}
            {busy &&
              (onlyWaiting ? (
                <span className="working" role="status">
                  <span className="task-still" aria-hidden="true" /> Waiting for you
                </span>
              ) : (
                <span className="working" role="status">
                  <span className="spinner" aria-hidden="true" /> Working…
                </span>
              ))}
            <UsageTotal conversationId={conversationId} />
            <ModelPicker conversation={conversation} />
            <AutopilotToggle state={autopilot} />
            {plan && <PlanReviewModeSelect value={plan.mode} onChange={setReviewMode} />}
            <ConversationSettingsButton
              conversationId={conversation.id}
              review={plan ? { value: plan.mode, onChange: setReviewMode } : undefined}
            />
          </header>
          <TaskHeader
            conversationId={conversationId}
            running={busy}
            plan={plan}
            reviewBusy={reviewBusy}
            continuity={continuity}
            onContinueOffered={setContinueOffered}
            runStateOf={(owner) => runState(owner, agentsNow)}
            onJumpToMessage={(id, transcriptId = conversationId) => {
              if (transcriptId !== conversationId) {
                // A worker's tool call is in its own transcript: that worker's view loads and scrolls.
                setWorkerId(transcriptId);
                setScrollTarget({ id, nonce: Date.now(), transcriptId });
                return;
              }
              setWorkerId(null);
              // The message may be older than the loaded window.
              void loadUntil(id).then(() => setScrollTarget({ id, nonce: Date.now(), transcriptId }));
            }}
          />
          <AutopilotNotice state={autopilot} />
          <WorkerStrip
            workers={workers}
            selectedId={selectedWorker?.id ?? null}
            planWaiting={planWaiting}
            onSelect={(id) => setWorkerId((current) => (current === id ? null : id))}
          />
          {selectedWorker ? (
            // Keyed by worker: its transcript state (useMessages) must start empty for each one.
            <WorkerView
              key={selectedWorker.id}
              workers={workers}
              worker={selectedWorker}
              scrollToMessageId={scrollTarget?.transcriptId === selectedWorker.id ? scrollTarget : null}
              questions={questions}
              onSelect={setWorkerId}
              onBack={() => setWorkerId(null)}
            />
          ) : loaded && messages.length === 0 ? (
            <div className="empty-chat">
              <h2>What should we work on?</h2>
              <p>
                Describe the goal. For multi-step work the assistant writes a task list and keeps it current as it goes.
              </p>
            </div>
          ) : (
            <MessageList
              messages={messages}
              hasOlder={hasOlder}
              onLoadOlder={loadOlder}
              scrollToMessageId={scrollTarget?.transcriptId === conversationId ? scrollTarget : null}
              actions={{
                running: status.running,
                onEdit: (messageId, content) =>
                  void guard(() => call(api, 'chat:edit', { conversationId, messageId, content })),
                onRegenerate: (messageId) =>
                  void guard(() => call(api, 'chat:regenerate', { conversationId, messageId })),
                onShowVersion: (messageId, index) =>
                  void guard(() => showVersion(api, { conversationId, messageId, index })),
              }}
            />
          )}
          {!selectedWorker && <QuestionBanners questions={questions} />}
          {!selectedWorker && status.error && !status.running && (
            <ChatErrorBanner
              error={status.error}
              // One recovery action: with tasks left, the header's "Continue remaining tasks".
              onRetry={
                continueOffered ? undefined : () => void guard(() => call(api, 'chat:retry', { conversationId }))
              }
              onOpenSettings={props.onOpenSettings}
            />
          )}
          {composer}
        </section>
      </PlanCallsContext.Provider>
    </ApprovalsContext.Provider>
  );
}
