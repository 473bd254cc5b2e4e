import { useEffect, useState } from 'react';
import type { Conversation } from '../../shared/domain';
import { call, useApi, useEvent } from '../api/apiContext';
import { useGuard } from '../common/toasts';
import { InlineRename } from '../common/InlineRename';
import { useMessages } from './useMessages';
import { MessageList } from './MessageList';
import { Composer } from './Composer';

export function ConversationView(props: { id: string; renameRequest: number; onMissing: () => void }) {
  const api = useApi();
  const guard = useGuard();
  const [conversation, setConversation] = useState<Conversation | null>(null);
  const [renaming, setRenaming] = useState(false);
  const { messages, loaded } = useMessages(props.id);

  useEffect(() => {
    call(api, 'conversations:get', { id: props.id }).then(setConversation, props.onMissing);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [api, props.id]);

  const [seenRequest] = useState(props.renameRequest);
  useEffect(() => {
    if (props.renameRequest !== seenRequest) setRenaming(true);
  }, [props.renameRequest, seenRequest]);

  useEvent(
    'conversations:changed',
    (change) => {
      if (change.id !== props.id) return;
      if (change.kind === 'deleted') props.onMissing();
      else if (change.conversation) setConversation(change.conversation);
    },
    [props.id],
  );

  if (!conversation) return <div className="loading" aria-busy="true" />;

  return (
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
            <button type="button" className="title-button" aria-label={`Rename “${conversation.title}”`} onClick={() => setRenaming(true)}>
              {conversation.title}
            </button>
          </h1>
        )}
      </header>
      {loaded && messages.length === 0 ? (
        <div className="empty-chat">
          <h2>What should we work on?</h2>
          <p>Describe the goal. For multi-step work the assistant writes a task list and keeps it current as it goes.</p>
        </div>
      ) : (
        <MessageList messages={messages} />
      )}
      <Composer
        onSend={async (content) => {
          const sent = await guard(() => call(api, 'messages:send', { conversationId: conversation.id, content }));
          return sent !== undefined;
        }}
      />
    </section>
  );
}
