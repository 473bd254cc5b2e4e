// The settings schema. Every field has a default, so `Settings.parse({})` is a valid
// configuration and a file missing fields (an older version) still loads.
import { z } from 'zod';

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

export const Settings = z.object({
  theme: Theme.default('system'),
  provider: ProviderId.default('openai'),
  baseUrl: z.string().default(PROVIDER_PRESETS.openai.baseUrl),
  model: z.string().default('gpt-4o-mini'),
  temperature: z.number().min(0).max(2).default(0.7),
  maxToolRounds: z.number().int().min(1).max(200).default(25),
  taskToolStyle: TaskToolStyle.default('full-list'),
  workerConcurrency: z.number().int().min(1).max(10).default(5),
  autopilotDefault: z.boolean().default(false),
  autopilotCap: z.number().int().min(1).max(20).default(5),
});
export type Settings = z.infer<typeof Settings>;

/** What the renderer may change: every field optional, each validated. */
export const SettingsPatch = Settings.partial().strict();
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
