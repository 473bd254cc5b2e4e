// The default system prompt (Settings): saved when the field loses the focus, so typing
// does not write the settings file on every key.
import { INSTRUCTIONS_MAX } from '../../shared/instructions';
import { call, useApi } from '../api/apiContext';
import { useGuard } from '../common/toasts';
import { useFollowedState } from '../common/useFollowedState';
import './instructions.css';

export function DefaultSystemPrompt({ value }: { value: string }) {
  const api = useApi();
  const guard = useGuard();
  // Another window may change the setting: its value replaces what is shown.
  const [text, setText] = useFollowedState(value);
  return (
    <fieldset className="settings-group">
      <legend>Instructions</legend>
      <label className="field">
        <span>Default system prompt</span>
        <textarea
          className="system-prompt"
          rows={5}
          maxLength={INSTRUCTIONS_MAX}
          value={text}
          placeholder="Sent first in every conversation, e.g. “You are a concise assistant.”"
          onChange={(e) => setText(e.target.value)}
          onBlur={() => {
            if (text !== value) void guard(() => call(api, 'settings:update', { patch: { systemPrompt: text } }));
          }}
        />
      </label>
      <small className="field-note">
        Each conversation can add its own instructions under “Conversation settings” in its header; they follow this
        prompt.
      </small>
    </fieldset>
  );
}
