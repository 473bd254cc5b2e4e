// "Connect a model": the first run's way to a working provider, without Settings. Pick a
// preset (its address filled in), paste a key if the service needs one, and "Test
// connection" saves the profile and lists the server's models; choosing one makes it the
// model new conversations use. Loaded only when the home screen needs it.
import { useId, useState } from 'react';
import { isKeylessPreset, isUnconfiguredPreset } from '../../shared/firstRun';
import { PROVIDER_PRESETS, presetProfileName, type ProviderPresetId } from '../../shared/providers';
import type { SettingsView } from '../../shared/settings';
import { call, useApi } from '../api/apiContext';
import { PresetOptions } from '../providers/PresetOptions';
import './firstRun.css';

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

export function ConnectModelCard(props: { settings: SettingsView; onConnected: () => void }) {
  const api = useApi();
  const ids = useId();
  const [preset, setPreset] = useState<ProviderPresetId>('openai');
  const [baseUrl, setBaseUrl] = useState(PROVIDER_PRESETS.openai.baseUrl);
  const [key, setKey] = useState('');
  /** The profile this card saved (a second test changes it rather than adding another). */
  const [profileId, setProfileId] = useState<string | null>(null);
  const [models, setModels] = useState<string[] | null>(null);
  const [model, setModel] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const choosePreset = (next: ProviderPresetId) => {
    setPreset(next);
    setBaseUrl(PROVIDER_PRESETS[next].baseUrl);
    setModels(null);
    setError(null);
  };

  const saveProfile = async (defaultModel?: string) => {
    const before = new Set(props.settings.profiles.map((p) => p.id));
    // A stored preset nobody set up (older versions kept an "OpenAI" one) becomes this one.
    const known =
      profileId ?? props.settings.profiles.find((p) => isUnconfiguredPreset(p, PROVIDER_PRESETS[p.preset]))?.id;
    const view = await call(api, 'providers:save', {
      profile: {
        ...(known ? { id: known } : {}),
        name: presetProfileName(preset),
        preset,
        baseUrl: baseUrl.trim(),
        ...(defaultModel ? { defaultModel } : {}),
      },
    });
    const id = known ?? view.profiles.find((p) => !before.has(p.id) && !p.readOnly)?.id;
    if (!id) throw new Error('The profile was not saved. Try again, or add it in Settings.');
    setProfileId(id);
    return id;
  };

  const test = async () => {
    if (!baseUrl.trim()) return setError('Enter the base URL of the server, e.g. http://127.0.0.1:8080/v1.');
    setBusy(true);
    setError(null);
    setModels(null);
    try {
      const id = await saveProfile();
      if (key.trim()) await call(api, 'providers:setKey', { id, key: key.trim() });
      const listed = (await call(api, 'models:list', { profileId: id, fieldsShown: true })).models;
      setModels(listed);
      const suggested = PROVIDER_PRESETS[preset].model;
      setModel(listed.includes(suggested) ? suggested : (listed[0] ?? ''));
    } catch (failure) {
      setError(message(failure));
    } finally {
      setBusy(false);
    }
  };

  const chooseModel = async () => {
    if (!model) return;
    setBusy(true);
    try {
      const id = await saveProfile(model);
      await call(api, 'settings:update', { patch: { lastModel: { profileId: id, model } } });
      props.onConnected();
    } catch (failure) {
      setError(message(failure));
      setBusy(false);
    }
  };

  return (
    <section className="connect-card" aria-labelledby={`${ids}-title`}>
      <h2 id={`${ids}-title`}>Connect a model</h2>
      <p>
        Stepwise talks to any OpenAI-compatible server: a hosted service with your API key, or a model running on this
        computer.
      </p>
      <form
        className="connect-form"
        onSubmit={(event) => {
          event.preventDefault();
          void test();
        }}
      >
        <label className="connect-field">
          Provider
          <select value={preset} onChange={(event) => choosePreset(event.target.value as ProviderPresetId)}>
            <PresetOptions />
          </select>
        </label>
        <label className="connect-field">
          Base URL
          <input
            type="url"
            value={baseUrl}
            placeholder="http://127.0.0.1:8080/v1"
            onChange={(event) => setBaseUrl(event.target.value)}
          />
        </label>
        <label className="connect-field">
          API key{isKeylessPreset(preset) ? ' (if the server needs one)' : ''}
          <input type="password" value={key} autoComplete="off" onChange={(event) => setKey(event.target.value)} />
        </label>
        <div className="connect-actions">
          <button type="submit" className={models ? undefined : 'primary'} disabled={busy}>
            {busy && !models ? 'Testing…' : 'Test connection'}
          </button>
        </div>
      </form>
      {error && (
        <p className="connect-error" role="alert">
          {error}
        </p>
      )}
      {models && (
        <div className="connect-models">
          <p role="status">
            Connected: {models.length} {models.length === 1 ? 'model' : 'models'} available.
          </p>
          <label className="connect-field">
            Model
            <select value={model} onChange={(event) => setModel(event.target.value)}>
              {models.map((name) => (
                <option key={name} value={name}>
                  {name}
                </option>
              ))}
            </select>
          </label>
          <button type="button" className="primary" disabled={busy || !model} onClick={() => void chooseModel()}>
            Use this model
          </button>
        </div>
      )}
    </section>
  );
}
