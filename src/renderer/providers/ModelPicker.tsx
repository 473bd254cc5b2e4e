// The conversation header's model picker (accessible name "Model"): profile and model
// for this conversation; new conversations start with the last choice.
import type { Conversation } from '../../shared/domain';
import { call, useApi } from '../api/apiContext';
import { useGuard } from '../common/toasts';
import { useSettings } from '../settings/useSettings';
import { ModelSelect } from './ModelSelect';
import './providers.css';

export function ModelPicker({ conversation }: { conversation: Conversation }) {
  const api = useApi();
  const guard = useGuard();
  const settings = useSettings();
  if (!settings) return null;
  const value = conversation.model ?? settings.defaultModel;
  return (
    <ModelSelect
      label="Model"
      className="model-picker"
      settings={settings}
      value={value}
      onChange={(model) => {
        if (model) void guard(() => call(api, 'conversations:setModel', { id: conversation.id, model }));
      }}
    />
  );
}
