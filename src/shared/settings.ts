// The settings schema. Every field has a default, so `Settings.parse({})` is a valid
// configuration and a file missing fields (an older version) still loads.
import { z } from 'zod';
import { InstructionsText } from './instructions';
import { PromptLibrary } from './promptLibrary';

export const Theme = z.enum(['system', 'light', 'dark']);
export type Theme = z.infer<typeof Theme>;

export const ProviderId = z.enum(['openai', 'ollama', 'lmstudio', 'custom']);
export type ProviderId = z.infer<typeof ProviderId>;

export const PROVIDER_PRESETS: Record<ProviderId, { label: string; baseUrl: string }> = {
  openai: { label: 'OpenAI', baseUrl: 'https://api.openai.com/v1' },
  ollama: { label: 'Ollama', baseUrl: 'http://127.0.0.1:11434/v1' },
  lmstudio: { label: 'LM Studio', baseUrl: 'http://127.0.0.1:1234/v1' },
  custom: { label: 'Custom (OpenAI-compatible)', baseUrl: '' },
};

export const TaskToolStyle = z.enum(['full-list', 'granular']);
export type TaskToolStyle = z.infer<typeof TaskToolStyle>;

/** Each setting's own schema, without a default (a patch must not invent values). */
const fields = {
  theme: Theme,
  provider: ProviderId,
  baseUrl: z.string().max(2000),
  model: z.string().max(500),
  temperature: z.number().min(0).max(2),
  maxToolRounds: z.number().int().min(1).max(200),
  taskToolStyle: TaskToolStyle,
  workerConcurrency: z.number().int().min(1).max(10),
  autopilotDefault: z.boolean(),
  autopilotCap: z.number().int().min(1).max(20),
  /** Sent first in every request of every conversation ('' for none). */
  systemPrompt: InstructionsText,
  /** Saved prompts, inserted with "/" in the composer. */
  prompts: PromptLibrary,
};

export const Settings = z.object({
  theme: fields.theme.default('system'),
  provider: fields.provider.default('openai'),
  baseUrl: fields.baseUrl.default(PROVIDER_PRESETS.openai.baseUrl),
  model: fields.model.default('gpt-4o-mini'),
  temperature: fields.temperature.default(0.7),
  maxToolRounds: fields.maxToolRounds.default(25),
  taskToolStyle: fields.taskToolStyle.default('full-list'),
  workerConcurrency: fields.workerConcurrency.default(5),
  autopilotDefault: fields.autopilotDefault.default(false),
  autopilotCap: fields.autopilotCap.default(5),
  systemPrompt: fields.systemPrompt.default(''),
  prompts: fields.prompts.default([]),
});
export type Settings = z.infer<typeof Settings>;

/** What the renderer may change: only the fields it names, each validated, no defaults filled in. */
export const SettingsPatch = z.strictObject(fields).partial();
export type SettingsPatch = z.infer<typeof SettingsPatch>;

/**
 * What the renderer sees: the settings plus facts about the key, never the key.
 * `overridden` names fields an environment variable currently decides.
 */
export const SettingsView = Settings.extend({
  apiKeySet: z.boolean(),
  apiKeySource: z.enum(['none', 'stored', 'env', 'file']),
  canStoreKey: z.boolean(),
  overridden: z.array(z.enum(['baseUrl', 'model', 'apiKey'])),
});
export type SettingsView = z.infer<typeof SettingsView>;
