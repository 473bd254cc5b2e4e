// "Conversation settings": the conversation's own instructions, sent first in every request
// of it (after the default system prompt from Settings). A new conversation's may be set
// before its first send; they are stored under its id and apply from that send on.
import { lazy, Suspense, useState } from 'react';
import './instructions.css';
import type { ReviewChoice } from './ConversationSettingsDialog';

const ConversationSettingsDialog = lazy(() =>
  import('./ConversationSettingsDialog').then((m) => ({ default: m.ConversationSettingsDialog })),
);

export function ConversationSettingsButton({
  conversationId,
  review,
}: {
  conversationId: string;
  review?: ReviewChoice;
}) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        className="ghost conversation-settings-button"
        aria-label="Conversation settings"
        title="Conversation settings"
        onClick={() => setOpen(true)}
      >
        <svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" focusable="false">
          <path d="M2 4h7M12 4h2M2 12h2M7 12h7" stroke="currentColor" strokeLinecap="round" />
          <circle cx="10.5" cy="4" r="1.5" fill="none" stroke="currentColor" />
          <circle cx="5.5" cy="12" r="1.5" fill="none" stroke="currentColor" />
        </svg>
      </button>
      {open && (
        <Suspense fallback={null}>
          <ConversationSettingsDialog conversationId={conversationId} review={review} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
