// Per model of a profile: its context window (known value, the server's, or 32k unless
// set here), prices per million tokens (none ship; with both, replies show a cost), and
// whether it sees images (guessed from its name unless set here).
import { useState } from 'react';
import { contextWindowOf, type ModelOptions, type ProfileView } from '../../shared/providers';
import { modelSeesImages } from '../../shared/mcp';
import { call, useApi } from '../api/apiContext';
import { useGuard, useToast } from '../common/toasts';

export function ModelDetails({ profile }: { profile: ProfileView }) {
  const models = [
    ...new Set([profile.defaultModel, ...Object.keys(profile.modelOptions), ...profile.models].filter(Boolean)),
  ];
  const [model, setModel] = useState(models[0] ?? '');
  if (!models.length) return null;
  // One grid: the labels of a row line up, whatever the width.
  return (
    <div className="model-details">
      <label className="field">
        <span>Model details for</span>
        <select value={model} onChange={(e) => setModel(e.target.value)}>
          {models.map((m) => (
            <option key={m} value={m}>
              {m}
            </option>
          ))}
        </select>
      </label>
      <DetailsForm key={model} profile={profile} model={model} />
    </div>
  );
}

function DetailsForm({ profile, model }: { profile: ProfileView; model: string }) {
  const api = useApi();
  const guard = useGuard();
  const toast = useToast();
  const own = profile.modelOptions[model] ?? {};
  const [window, setWindow] = useState(own.contextWindow?.toString() ?? '');
  const [input, setInput] = useState(own.inputPrice?.toString() ?? '');
  const [output, setOutput] = useState(own.outputPrice?.toString() ?? '');
  const [vision, setVision] = useState(own.vision === undefined ? 'auto' : own.vision ? 'yes' : 'no');
  const effective = contextWindowOf(
    { ...profile, modelOptions: { ...profile.modelOptions, [model]: { ...own, contextWindow: undefined } } },
    model,
  );

  const saveDetails = () =>
    void guard(async () => {
      const number = (text: string) => (text.trim() === '' ? undefined : Number(text));
      const numbers = { contextWindow: number(window), inputPrice: number(input), outputPrice: number(output) };
      const values = Object.values(numbers).filter((v) => v !== undefined);
      if (values.some((v) => !Number.isFinite(v) || v < 0)) throw new Error('Enter numbers (or leave a field empty).');
      const options: ModelOptions = { ...numbers, vision: vision === 'auto' ? undefined : vision === 'yes' };
      await call(api, 'providers:save', {
        profile: {
          id: profile.id,
          name: profile.name,
          preset: profile.preset,
          baseUrl: profile.baseUrl,
          modelOptions: { ...profile.modelOptions, [model]: stripUndefined(options) },
        },
      });
      toast(`Saved the details of ${model}`);
    });

  return (
    <>
      <label className="field">
        <span>Context window (tokens)</span>
        <input
          type="number"
          min={512}
          value={window}
          placeholder={String(effective)}
          onChange={(e) => setWindow(e.target.value)}
        />
      </label>
      <label className="field">
        <span>Input price ($ per 1M tokens)</span>
        <input type="number" min={0} step="any" value={input} onChange={(e) => setInput(e.target.value)} />
      </label>
      <label className="field">
        <span>Output price ($ per 1M tokens)</span>
        <input type="number" min={0} step="any" value={output} onChange={(e) => setOutput(e.target.value)} />
      </label>
      <label className="field">
        <span>Sees images</span>
        <select value={vision} onChange={(e) => setVision(e.target.value)}>
          <option value="auto">Guess from the name ({modelSeesImages(model) ? 'yes' : 'no'})</option>
          <option value="yes">Yes: send attached images</option>
          <option value="no">No: describe them by name</option>
        </select>
      </label>
      <div className="model-details-save">
        <button type="button" onClick={saveDetails}>
          Save model details
        </button>
      </div>
    </>
  );
}

function stripUndefined(options: ModelOptions): ModelOptions {
  return Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)) as ModelOptions;
}
