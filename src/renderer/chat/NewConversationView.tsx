// A new conversation before its first send: only a draft in the page (and its text in
// core), so opening it needs no round trip and nothing typed at once can go astray. The
// first send stores the conversation and its message in one call. Until then there is
// nothing to export or rename, so those controls are not shown; Autopilot and "Review
// plans" can be chosen ahead (they matter from the first reply on) and are stored with the
// first send.
import { useEffect, useState } from 'react';
import { call, useApi } from '../api/apiContext';
import { useGuard } from '../common/toasts';
import { useDrafts } from '../drafts/drafts';
import { Composer } from './Composer';
import { AutopilotToggle } from '../agents/Autopilot';
import { useSettings } from '../settings/useSettings';
import { ModelSelect } from '../providers/ModelSelect';
import './newConversation.css';
import { ConversationSettingsButton } from '../instructions/ConversationSettings';
import { PlanReviewModeSelect } from '../plans/PlanReviewMode';
import type { PlanReviewMode } from '../../shared/planContract';
import './conversation.css';
import { needsProvider } from '../../shared/firstRun';

export function NewConversationView(props: { id: string; onStarted: (id: string) => void }) {
  const api = useApi();
  const guard = useGuard();
  const drafts = useDrafts();
  const { id, onStarted } = props;
  const settings = useSettings();
  const [autopilot, setAutopilot] = useState<boolean | null>(null);
  const autopilotState = settings && { conversationId: id, enabled: autopilot ?? settings.autopilotDefault };
  const [planReview, setPlanReview] = useState<PlanReviewMode | null>(null);
  const review = settings && { value: planReview ?? settings.planReviewDefault, onChange: setPlanReview };

  useEffect(() => {
    drafts.openedNew(id);
    // A reload between the first send and the address update: open the stored conversation.
    void call(api, 'conversations:get', { id }).then(
      () => onStarted(id),
      () => {},
    );
  }, [api, drafts, id, onStarted]);

  return (
    <section className="conversation" aria-label="New conversation">
      <header className="conversation-header">
        <h1 className="conversation-heading">
          <span className="title-static">New conversation</span>
        </h1>
        {settings && (
          // Before the first send the choice is the one for new conversations: this one starts with it.
          <ModelSelect
            label="Model"
            className="model-picker"
            settings={settings}
            value={settings.defaultModel}
            onChange={(lastModel) => {
              if (lastModel) void guard(() => call(api, 'settings:update', { patch: { lastModel } }));
            }}
          />
        )}
        <AutopilotToggle state={autopilotState} onToggle={setAutopilot} />
        {review && <PlanReviewModeSelect {...review} />}
        <ConversationSettingsButton conversationId={id} review={review ?? undefined} />
      </header>
      <div className="empty-chat">
        <h2>What should we work on?</h2>
        <p>Describe the goal. For multi-step work the assistant writes a task list and keeps it current as it goes.</p>
      </div>
      <Composer
        draftId={id}
        running={false}
        onStop={() => {}}
        noModel={settings ? needsProvider(settings) : false}
        onSend={async (content, attachments) => {
          const started = await guard(() =>
            call(api, 'conversations:start', {
              id,
              content,
              ...(attachments.length ? { attachments } : {}),
              ...(autopilot === null ? {} : { autopilot }),
              ...(planReview === null ? {} : { planReview }),
            }),
          );
          if (!started) {
            drafts.startFailed(id);
            // The answer may have been lost with the connection after core stored it: then
            // open the stored conversation (the text stays in its composer, sent once).
            void call(api, 'conversations:get', { id }).then(
              () => {
                drafts.startedNew(id);
                onStarted(id);
              },
              () => {},
            );
            return false;
          }
          drafts.startedNew(id);
          onStarted(id);
          return true;
        }}
        onSendPrompt={async (prompt) => {
          const sent = await guard(() =>
            call(api, 'mcp:sendPrompt', {
              conversationId: id,
              ...prompt,
              newConversation: {
                ...(autopilot === null ? {} : { autopilot }),
                ...(planReview === null ? {} : { planReview }),
              },
            }),
          );
          if (!sent) return null;
          drafts.startedNew(id);
          onStarted(id);
          return sent;
        }}
      />
    </section>
  );
}
