// "Conversation settings": the conversation's own instructions, sent first in every request
// of it (after the default system prompt from Settings). A new conversation's may be set
// before its first send; they are stored under its id and apply from that send on.
import { useEffect, useState } from 'react';
import { INSTRUCTIONS_MAX } from '../../shared/instructions';
import { call, useApi } from '../api/apiContext';
import { useGuard, useToast } from '../common/toasts';
import { useModal } from '../common/useModal';
import './instructions.css';
import { DialogActions } from '../common/DialogActions';
import type { PlanReviewMode } from '../../shared/planContract';
import { PlanReviewField } from '../plans/PlanReviewMode';

/** "Review plans" in the dialog: the conversation's choice, or a new conversation's before its first send. */
export interface ReviewChoice {
  value: PlanReviewMode;
  onChange: (mode: PlanReviewMode) => void;
}

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
        <ConversationSettingsDialog conversationId={conversationId} review={review} onClose={() => setOpen(false)} />
      )}
    </>
  );
}

function ConversationSettingsDialog({
  conversationId,
  review,
  onClose,
}: {
  conversationId: string;
  review?: ReviewChoice;
  onClose: () => void;
}) {
  const api = useApi();
  const guard = useGuard();
  const toast = useToast();
  const ref = useModal();
  const [text, setText] = useState<string | null>(null);

  useEffect(() => {
    void guard(() => call(api, 'instructions:get', { conversationId })).then((result) => setText(result?.text ?? ''));
  }, [api, guard, conversationId]);

  const save = async () => {
    const saved = await guard(() => call(api, 'instructions:set', { conversationId, text: text ?? '' }));
    if (saved) {
      toast(saved.text ? 'Instructions saved' : 'Instructions cleared');
      onClose();
    }
  };

  return (
    <dialog ref={ref} className="dialog instructions-dialog" aria-label="Conversation settings" onClose={onClose}>
      <h2>Conversation settings</h2>
      {/* Applies at once, as in the header: a choice, not text to save. */}
      {review && <PlanReviewField value={review.value} onChange={review.onChange} />}
      <label className="field">
        <span>Instructions</span>
        <textarea
          rows={8}
          maxLength={INSTRUCTIONS_MAX}
          disabled={text === null}
          value={text ?? ''}
          placeholder="How the assistant should work in this conversation, e.g. “Answer in French. Keep it short.”"
          onChange={(e) => setText(e.target.value)}
        />
      </label>
      <small className="field-note">
        Sent first in every request of this conversation, after the default system prompt from Settings.
      </small>
      <DialogActions label="Save" onCancel={onClose} onConfirm={() => void save()} disabled={text === null} />
    </dialog>
  );
}
