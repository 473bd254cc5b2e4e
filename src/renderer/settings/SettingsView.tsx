import { useEffect, useState } from 'react';
import type { CallResponse } from '../../shared/ipc';
import { PROVIDER_PRESETS, type ProviderId, type SettingsView as Settings } from '../../shared/settings';
import { call, useApi } from '../api/apiContext';
import { useGuard, useToast } from '../common/toasts';
import { DefaultSystemPrompt } from '../instructions/DefaultSystemPrompt';
import { PromptLibrarySettings } from '../instructions/PromptLibrarySettings';

export function SettingsView({ settings, onClose }: { settings: Settings | null; onClose: () => void }) {
  if (!settings) return <div className="loading" aria-busy="true" />;
  return (
    <section className="settings" aria-label="Settings">
      <header className="settings-header">
        <h1>Settings</h1>
        <button type="button" className="ghost" onClick={onClose}>
          Close settings
        </button>
      </header>
      <ProviderSettings settings={settings} />
      <AgentSettings settings={settings} />
      <DefaultSystemPrompt value={settings.systemPrompt} />
      <PromptLibrarySettings prompts={settings.prompts} />
      <AppearanceSettings settings={settings} />
      <AboutSection />
    </section>
  );
}

function useUpdate() {
  const api = useApi();
  const guard = useGuard();
  return (patch: Partial<Settings>) => void guard(() => call(api, 'settings:update', { patch }));
}

function ProviderSettings({ settings }: { settings: Settings }) {
  const api = useApi();
  const guard = useGuard();
  const toast = useToast();
  const update = useUpdate();
  const [baseUrl, setBaseUrl] = useState(settings.baseUrl);
  const [model, setModel] = useState(settings.model);
  const [key, setKey] = useState('');
  const [models, setModels] = useState<string[] | null>(null);
  const envBase = settings.overridden.includes('baseUrl');
  const envModel = settings.overridden.includes('model');
  const envKey = settings.overridden.includes('apiKey');

  const chooseProvider = (provider: ProviderId) => {
    const preset = PROVIDER_PRESETS[provider].baseUrl;
    const next = provider === 'custom' ? baseUrl : preset;
    setBaseUrl(next);
    update({ provider, baseUrl: next });
  };

  return (
    <fieldset className="settings-group">
      <legend>Model provider</legend>
      <label className="field">
        <span>Provider</span>
        <select value={settings.provider} onChange={(e) => chooseProvider(e.target.value as ProviderId)}>
          {(Object.keys(PROVIDER_PRESETS) as ProviderId[]).map((id) => (
            <option key={id} value={id}>
              {PROVIDER_PRESETS[id].label}
            </option>
          ))}
        </select>
      </label>
      <label className="field">
        <span>Base URL</span>
        <input
          type="url"
          value={baseUrl}
          disabled={envBase}
          placeholder="http://127.0.0.1:8080/v1"
          onChange={(e) => setBaseUrl(e.target.value)}
          onBlur={() => baseUrl !== settings.baseUrl && update({ baseUrl, provider: 'custom' })}
        />
        {envBase && <small>Set by OPENAI_BASE_URL.</small>}
      </label>
      <div className="field">
        <label htmlFor="settings-model">Model</label>
        <div className="field-row">
          <input
            id="settings-model"
            list="settings-model-list"
            value={model}
            disabled={envModel}
            onChange={(e) => setModel(e.target.value)}
            onBlur={() => model.trim() && model !== settings.model && update({ model: model.trim() })}
          />
          <datalist id="settings-model-list">
            {(models ?? []).map((m) => (
              <option key={m} value={m} />
            ))}
          </datalist>
          <button
            type="button"
            onClick={() =>
              void guard(async () => {
                const result = await call(api, 'models:list', {});
                setModels(result.models);
                toast(`${result.models.length} models available`);
              })
            }
          >
            Load models
          </button>
        </div>
        {envModel && <small>Set by STEPWISE_MODEL.</small>}
        {models && models.length > 0 && (
          <ul className="model-list" aria-label="Available models">
            {models.slice(0, 50).map((m) => (
              <li key={m}>
                <button
                  type="button"
                  className={m === settings.model ? 'ghost small active' : 'ghost small'}
                  onClick={() => {
                    setModel(m);
                    update({ model: m });
                  }}
                >
                  {m}
                </button>
              </li>
            ))}
          </ul>
        )}
      </div>
      <div className="field">
        <label htmlFor="settings-key">API key</label>
        <div className="field-row">
          <input
            id="settings-key"
            type="password"
            autoComplete="off"
            value={key}
            disabled={envKey || !settings.canStoreKey}
            placeholder={settings.apiKeySet ? '•••••••• (saved)' : 'sk-…  (not needed for Ollama or LM Studio)'}
            onChange={(e) => setKey(e.target.value)}
          />
          <button
            type="button"
            disabled={!key.trim()}
            onClick={() =>
              void guard(() => call(api, 'settings:setApiKey', { key })).then((r) => {
                if (r) {
                  setKey('');
                  toast('API key saved');
                }
              })
            }
          >
            Save key
          </button>
          {settings.apiKeySet && settings.apiKeySource !== 'env' && (
            <button type="button" onClick={() => void guard(() => call(api, 'settings:setApiKey', { key: null }))}>
              Forget key
            </button>
          )}
        </div>
        <small>
          {envKey
            ? 'Set by OPENAI_API_KEY.'
            : !settings.canStoreKey
              ? 'No keychain is available to encrypt the key; set OPENAI_API_KEY instead.'
              : settings.apiKeySet
                ? 'A key is saved. It never leaves this computer except to your provider.'
                : 'No key saved.'}
        </small>
      </div>
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

function AgentSettings({ settings }: { settings: Settings }) {
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

function AppearanceSettings({ settings }: { settings: Settings }) {
  const update = useUpdate();
  return (
    <fieldset className="settings-group">
      <legend>Appearance</legend>
      <div role="radiogroup" aria-label="Theme" className="segmented">
        {(['system', 'light', 'dark'] as const).map((theme) => (
          <label key={theme} className={settings.theme === theme ? 'segment checked' : 'segment'}>
            <input type="radio" name="theme" value={theme} checked={settings.theme === theme} onChange={() => update({ theme })} />
            {theme === 'system' ? 'Match system' : theme === 'light' ? 'Light' : 'Dark'}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

function AboutSection() {
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
