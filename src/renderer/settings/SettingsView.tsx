// The sections of Settings that have no folder of their own (the list is settingsSections.tsx).
import { useEffect, useState } from 'react';
import type { CallResponse } from '../../shared/ipc';
import type { SettingsView as Settings } from '../../shared/settings';
import { call, useApi } from '../api/apiContext';
import { useGuard } from '../common/toasts';
import { ModelSelect } from '../providers/ModelSelect';
import { PlanReviewField } from '../plans/PlanReviewMode';
import './settingsSections.css';

function useUpdate() {
  const api = useApi();
  const guard = useGuard();
  return (patch: Partial<Settings>) => void guard(() => call(api, 'settings:update', { patch }));
}

export function ModelSettings({ settings }: { settings: Settings }) {
  const update = useUpdate();
  return (
    <fieldset className="settings-group">
      <legend>Models</legend>
      <label className="field">
        <span>Temperature ({settings.temperature.toFixed(1)})</span>
        <input
          type="range"
          min={0}
          max={2}
          step={0.1}
          value={settings.temperature}
          onChange={(e) => update({ temperature: Number(e.target.value) })}
        />
      </label>
      <div className="field">
        <span>Worker model</span>
        <ModelSelect
          label="Worker model"
          settings={settings}
          value={settings.workerModel}
          allowSame
          onChange={(workerModel) => update({ workerModel })}
        />
      </div>
      <div className="field">
        <span>Autopilot assessor model</span>
        <ModelSelect
          label="Autopilot assessor model"
          settings={settings}
          value={settings.assessorModel}
          allowSame
          onChange={(assessorModel) => update({ assessorModel })}
        />
      </div>
    </fieldset>
  );
}

function NumberField(props: { label: string; value: number; min: number; max: number; onCommit: (n: number) => void }) {
  const [text, setText] = useState(String(props.value));
  return (
    <label className="field">
      <span>{props.label}</span>
      <input
        type="number"
        min={props.min}
        max={props.max}
        value={text}
        onChange={(e) => setText(e.target.value)}
        onBlur={() => {
          const n = Math.round(Number(text));
          if (Number.isFinite(n) && n >= props.min && n <= props.max) props.onCommit(n);
          else setText(String(props.value));
        }}
      />
    </label>
  );
}

export function AgentSettings({ settings }: { settings: Settings }) {
  const update = useUpdate();
  return (
    <fieldset className="settings-group">
      <legend>Agent</legend>
      <label className="field">
        <span>Task tool style</span>
        <select
          value={settings.taskToolStyle}
          onChange={(e) => update({ taskToolStyle: e.target.value as Settings['taskToolStyle'] })}
        >
          <option value="full-list">Full list (manage_todo_list)</option>
          <option value="granular">Granular (task_create, task_update, …)</option>
        </select>
      </label>
      <NumberField
        label="Max tool rounds per reply"
        value={settings.maxToolRounds}
        min={1}
        max={200}
        onCommit={(maxToolRounds) => update({ maxToolRounds })}
      />
      <NumberField
        label="Workers running at once"
        value={settings.workerConcurrency}
        min={1}
        max={10}
        onCommit={(workerConcurrency) => update({ workerConcurrency })}
      />
      <label className="field checkbox-field">
        <input
          type="checkbox"
          checked={settings.autopilotDefault}
          onChange={(e) => update({ autopilotDefault: e.target.checked })}
        />
        <span>Autopilot on for new conversations</span>
      </label>
      <PlanReviewField
        value={settings.planReviewDefault}
        onChange={(planReviewDefault) => update({ planReviewDefault })}
      />
      <NumberField
        label="Autopilot steps per message"
        value={settings.autopilotCap}
        min={1}
        max={20}
        onCommit={(autopilotCap) => update({ autopilotCap })}
      />
    </fieldset>
  );
}

export function AppearanceSettings({ settings }: { settings: Settings }) {
  const update = useUpdate();
  return (
    <fieldset className="settings-group">
      <legend>Appearance</legend>
      <div role="radiogroup" aria-label="Theme" className="segmented">
        {(['system', 'light', 'dark'] as const).map((theme) => (
          <label key={theme} className={settings.theme === theme ? 'segment checked' : 'segment'}>
            <input
              type="radio"
              name="theme"
              value={theme}
              checked={settings.theme === theme}
              onChange={() => update({ theme })}
            />
            {theme === 'system' ? 'Match system' : theme === 'light' ? 'Light' : 'Dark'}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

export function AboutSection() {
  const api = useApi();
  const [info, setInfo] = useState<CallResponse<'app:info'> | null>(null);
  useEffect(() => {
    void call(api, 'app:info', {}).then(setInfo, () => {});
  }, [api]);
  if (!info) return null;
  return (
    <fieldset className="settings-group">
      <legend>About</legend>
      <dl className="about">
        <dt>Version</dt>
        <dd>{info.version}</dd>
        <dt>Running as</dt>
        <dd>{info.host === 'electron' ? 'Desktop app' : 'Browser host (npm run serve)'}</dd>
        <dt>Data directory</dt>
        <dd>
          <code>{info.dataDir}</code>
        </dd>
      </dl>
      <small className="field-note">
        Conversations are in <code>stepwise.db</code> there. Put a <code>task-planning.md</code> in it to change the
        planning guidance the model gets.
      </small>
    </fieldset>
  );
}
