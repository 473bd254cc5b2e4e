// Settings → Providers: any number of profiles (from presets or custom), each with its
// base URL, key (saved in main, never shown), extra headers, default model and model
// details. A changed base URL does not receive the saved key until the user says so.
import { useState } from 'react';
import { isUnconfiguredPreset } from '../../shared/firstRun';
import {
  PROVIDER_PRESETS,
  ProviderPresetId,
  plural,
  presetProfileName,
  type ProfileView,
} from '../../shared/providers';
import type { SettingsView } from '../../shared/settings';
import { call, useApi } from '../api/apiContext';
import { ConfirmDialog } from '../common/ConfirmDialog';
import { useGuard, useToast } from '../common/toasts';
import { useFollowedState } from '../common/useFollowedState';
import { ModelCombobox } from './ModelCombobox';
import { ModelDetails } from './ModelDetails';
import { PresetOptions } from './PresetOptions';
import './providers.css';

const unconfigured = (p: ProfileView) => isUnconfiguredPreset(p, PROVIDER_PRESETS[p.preset]);

export function ProviderSettings({ settings, profileId }: { settings: SettingsView; profileId?: string | null }) {
  const api = useApi();
  const guard = useGuard();
  const [selected, setSelected] = useState<string | null>(null);
  // A preset nobody set up is not listed (it is under "Add a provider") unless it is in use here.
  const listed = settings.profiles.filter((p) => !unconfigured(p) || p.id === selected || p.id === profileId);
  // Until the user picks one: the open conversation's profile, else the one new conversations use.
  const profile =
    [selected, profileId, settings.defaultModel?.profileId]
      .map((id) => listed.find((p) => p.id === id))
      .find(Boolean) ?? listed[0];

  const add = (preset: ProviderPresetId) =>
    void guard(async () => {
      // The stored, never set up profile of this preset is the one to set up.
      const unused = settings.profiles.find((p) => p.preset === preset && unconfigured(p));
      if (unused) return setSelected(unused.id);
      const before = new Set(settings.profiles.map((p) => p.id));
      const info = PROVIDER_PRESETS[preset];
      const view = await call(api, 'providers:save', {
        profile: {
          name: uniqueName(settings, presetProfileName(preset)),
          preset,
          baseUrl: info.baseUrl,
          defaultModel: info.model,
        },
      });
      setSelected(view.profiles.find((p) => !before.has(p.id))?.id ?? null);
    });

  return (
    <fieldset className="settings-group">
      <legend>Providers</legend>
      <div className="provider-toolbar">
        {listed.length > 0 && (
          <label className="field">
            <span>Profile</span>
            <select value={profile?.id ?? ''} onChange={(e) => setSelected(e.target.value)}>
              {listed.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.readOnly ? `${p.name} (read-only)` : p.name}
                </option>
              ))}
            </select>
          </label>
        )}
        <label className="field">
          <span>Add a provider</span>
          <select
            value=""
            onChange={(e) => {
              if (e.target.value) add(e.target.value as ProviderPresetId);
            }}
          >
            <option value="">Choose…</option>
            <PresetOptions />
          </select>
        </label>
      </div>
      {profile ? (
        <ProfileEditor key={profile.id} profile={profile} canStoreKey={settings.canStoreKey} />
      ) : (
        <p className="field-note">No provider is set up yet. Choose one under “Add a provider”.</p>
      )}
    </fieldset>
  );
}

function uniqueName(settings: SettingsView, base: string): string {
  const names = new Set(settings.profiles.map((p) => p.name));
  if (!names.has(base)) return base;
  for (let i = 2; ; i++) if (!names.has(`${base} ${i}`)) return `${base} ${i}`;
}

function lockNote(profile: ProfileView, field: 'baseUrl' | 'apiKey' | 'defaultModel') {
  const lock = profile.locked.find((l) => l.field === field);
  return lock ? <small>Set by {lock.variable}; the Environment profile is read-only.</small> : null;
}

function ProfileEditor({ profile, canStoreKey }: { profile: ProfileView; canStoreKey: boolean }) {
  const api = useApi();
  const guard = useGuard();
  const toast = useToast();
  const [name, setName] = useFollowedState(profile.name);
  const [baseUrl, setBaseUrl] = useFollowedState(profile.baseUrl);
  const [model, setModel] = useFollowedState(profile.defaultModel);
  const [headers, setHeaders] = useFollowedState(headerText(profile.headers));
  const [key, setKey] = useState('');
  const [askKey, setAskKey] = useState(false);
  const [deleting, setDeleting] = useState(false);
  /** What "Load models" brought back, and a request to open the list with it. */
  const [loaded, setLoaded] = useState<string[] | null>(null);
  const [openModels, setOpenModels] = useState(0);
  const ro = profile.readOnly;

  const save = (
    change: Partial<{
      name: string;
      preset: ProviderPresetId;
      baseUrl: string;
      defaultModel: string;
      headers: Record<string, string>;
    }>,
  ) =>
    guard(async () => {
      const view = await call(api, 'providers:save', {
        profile: {
          id: profile.id,
          name: profile.name,
          preset: profile.preset,
          baseUrl: profile.baseUrl,
          headers: profile.headers,
          defaultModel: profile.defaultModel,
          ...change,
        },
      });
      // A new address with a key saved for the old one: ask before sending it there.
      if (view.profiles.find((p) => p.id === profile.id)?.key === 'held' && profile.key !== 'held') setAskKey(true);
      return view;
    });

  const confirmKey = () =>
    void guard(() => call(api, 'providers:confirmKey', { id: profile.id })).then(() => setAskKey(false));

  return (
    <section className="provider-editor" aria-label={`Provider ${profile.name}`}>
      <label className="field">
        <span>Name</span>
        <input
          value={name}
          disabled={ro}
          onChange={(e) => setName(e.target.value)}
          onBlur={() => name.trim() && name !== profile.name && void save({ name: name.trim() })}
        />
      </label>
      <label className="field">
        <span>Provider</span>
        <select
          value={profile.preset}
          disabled={ro}
          onChange={(e) => {
            const preset = e.target.value as ProviderPresetId;
            const next = PROVIDER_PRESETS[preset].baseUrl || baseUrl;
            setBaseUrl(next);
            void save({ preset, baseUrl: next });
          }}
        >
          <PresetOptions />
        </select>
      </label>
      <label className="field">
        <span>Base URL</span>
        <input
          type="url"
          value={baseUrl}
          disabled={ro}
          placeholder="http://127.0.0.1:8080/v1"
          onChange={(e) => setBaseUrl(e.target.value)}
          onBlur={() => baseUrl.trim() !== profile.baseUrl && void save({ baseUrl: baseUrl.trim() })}
        />
        {lockNote(profile, 'baseUrl')}
      </label>
      <div className="field">
        <label htmlFor={`key-${profile.id}`}>API key</label>
        <div className="field-row">
          <input
            id={`key-${profile.id}`}
            type="password"
            autoComplete="off"
            value={key}
            disabled={ro || !canStoreKey}
            placeholder={profile.key === 'saved' ? '•••••••• (saved)' : 'sk-…  (not needed for local servers)'}
            onChange={(e) => setKey(e.target.value)}
          />
          <button
            type="button"
            disabled={!key.trim()}
            onClick={() =>
              void guard(() => call(api, 'providers:setKey', { id: profile.id, key })).then((r) => {
                if (r) {
                  setKey('');
                  toast('API key saved');
                }
              })
            }
          >
            Save key
          </button>
          {(profile.key === 'saved' || profile.key === 'held') && (
            <button
              type="button"
              onClick={() => void guard(() => call(api, 'providers:setKey', { id: profile.id, key: null }))}
            >
              Forget key
            </button>
          )}
        </div>
        {lockNote(profile, 'apiKey') ?? (
          <small>
            {!canStoreKey
              ? 'No keychain is available to encrypt the key; set OPENAI_API_KEY instead.'
              : profile.key === 'saved'
                ? 'A key is saved. It is sent only to this base URL.'
                : profile.key === 'held'
                  ? null
                  : 'No key saved.'}
          </small>
        )}
        {profile.key === 'held' && (
          <div className="key-held" role="status">
            <p>
              The saved key was saved for {profile.keyServer}. It is not sent to {profile.baseUrl} until you confirm, or
              enter a key for this address.
            </p>
            <button type="button" onClick={confirmKey}>
              Send the saved key to this address
            </button>
          </div>
        )}
      </div>
      <div className="field">
        <label htmlFor={`model-${profile.id}`}>Default model</label>
        <div className="field-row">
          <ModelCombobox
            id={`model-${profile.id}`}
            value={model}
            models={loaded ?? profile.models}
            disabled={ro}
            openRequest={openModels}
            onChange={setModel}
            onCommit={(next) => next.trim() !== profile.defaultModel && !ro && void save({ defaultModel: next.trim() })}
          />
          <button
            type="button"
            onClick={() =>
              void guard(async () => {
                const result = await call(api, 'models:list', { profileId: profile.id });
                setLoaded(result.models);
                setOpenModels((n) => n + 1);
                toast(`${plural(result.models.length, 'model')} available`);
              })
            }
          >
            Load models
          </button>
        </div>
        {lockNote(profile, 'defaultModel')}
      </div>
      {!ro && (
        <label className="field">
          <span>Extra headers</span>
          <textarea
            rows={2}
            value={headers}
            placeholder="X-Title: Stepwise"
            onChange={(e) => setHeaders(e.target.value)}
            onBlur={() => {
              const parsed = parseHeaders(headers);
              if (parsed === null) toast('Write one header per line, as Name: value');
              else if (headerText(parsed) !== headerText(profile.headers)) void save({ headers: parsed });
            }}
          />
          <small>One per line, as Name: value. Sent with every request to this provider.</small>
        </label>
      )}
      <ModelDetails profile={profile} />
      {!ro && (
        <div>
          <button type="button" className="danger" onClick={() => setDeleting(true)}>
            Delete provider
          </button>
        </div>
      )}
      {askKey && (
        <ConfirmDialog
          title={`Send the saved key to ${profile.baseUrl}?`}
          confirmLabel="Send the key"
          onConfirm={confirmKey}
          onCancel={() => setAskKey(false)}
        >
          <p>
            The API key of “{profile.name}” was saved for {profile.keyServer ?? 'another address'}. Stepwise will not
            send it to the new address unless you confirm. You can also enter a key for this address instead.
          </p>
        </ConfirmDialog>
      )}
      {deleting && (
        <ConfirmDialog
          title={`Delete “${profile.name}”?`}
          confirmLabel="Delete"
          danger
          onConfirm={() =>
            void guard(() => call(api, 'providers:delete', { id: profile.id })).then(() => setDeleting(false))
          }
          onCancel={() => setDeleting(false)}
        >
          <p>Its saved key is forgotten. Conversations that used it switch to the default model.</p>
        </ConfirmDialog>
      )}
    </section>
  );
}

function headerText(headers: Record<string, string>): string {
  return Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}`)
    .join('\n');
}

function parseHeaders(text: string): Record<string, string> | null {
  const headers: Record<string, string> = {};
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    const at = line.indexOf(':');
    if (at <= 0) return null;
    headers[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  }
  return headers;
}
