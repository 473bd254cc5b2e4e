// The "Conversation settings" dialog: the conversation's own instructions and, before a
// new conversation's first send, its plan review. Loaded when the button is first pressed.
import { useEffect, useState } from 'react';
import { INSTRUCTIONS_MAX } from '../../shared/instructions';
import { call, useApi } from '../api/apiContext';
import { useGuard, useToast } from '../common/toasts';
import { useModal } from '../common/useModal';
import { DialogActions } from '../common/DialogActions';
import { PlanReviewField } from '../plans/PlanReviewMode';
import type { PlanReviewMode } from '../../shared/planContract';

/** "Review plans" in the dialog: the conversation's choice, or a new conversation's before its first send. */
export interface ReviewChoice {
  value: PlanReviewMode;
  onChange: (mode: PlanReviewMode) => void;
}

export function ConversationSettingsDialog({
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
