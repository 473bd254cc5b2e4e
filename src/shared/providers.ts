// Provider profiles: where requests go (base URL, headers, key) and which model they ask
// for. Any number of them; the key itself never appears here — it lives in main's
// secret store and the renderer only learns whether one is saved.
import { z } from 'zod';

export const ProviderPresetId = z.enum([
  'openai',
  'anthropic',
  'gemini',
  'openrouter',
  'deepseek',
  'groq',
  'mistral',
  'xai',
  'ollama',
  'lmstudio',
  'vllm',
  'llamacpp',
  'custom',
]);
export type ProviderPresetId = z.infer<typeof ProviderPresetId>;

export interface ProviderPreset {
  label: string;
  /** The provider's OpenAI-compatible endpoint ('' for Custom). */
  baseUrl: string;
  /** A model to start with; the user can load the real list. */
  model: string;
}

export const PROVIDER_PRESETS: Record<ProviderPresetId, ProviderPreset> = {
  openai: { label: 'OpenAI', baseUrl: 'https://api.openai.com/v1', model: 'gpt-4o-mini' },
  anthropic: { label: 'Anthropic', baseUrl: 'https://api.anthropic.com/v1/', model: 'claude-sonnet-4-5' },
  gemini: {
    label: 'Google Gemini',
    baseUrl: 'https://generativelanguage.googleapis.com/v1beta/openai/',
    model: 'gemini-2.5-flash',
  },
  openrouter: { label: 'OpenRouter', baseUrl: 'https://openrouter.ai/api/v1', model: 'openai/gpt-4o-mini' },
  deepseek: { label: 'DeepSeek', baseUrl: 'https://api.deepseek.com/v1', model: 'deepseek-chat' },
  groq: { label: 'Groq', baseUrl: 'https://api.groq.com/openai/v1', model: 'llama-3.3-70b-versatile' },
  mistral: { label: 'Mistral', baseUrl: 'https://api.mistral.ai/v1', model: 'mistral-large-latest' },
  xai: { label: 'xAI', baseUrl: 'https://api.x.ai/v1', model: 'grok-4' },
  ollama: { label: 'Ollama', baseUrl: 'http://127.0.0.1:11434/v1', model: 'llama3.2' },
  lmstudio: { label: 'LM Studio', baseUrl: 'http://127.0.0.1:1234/v1', model: '' },
  vllm: { label: 'vLLM', baseUrl: 'http://127.0.0.1:8000/v1', model: '' },
  llamacpp: { label: 'llama.cpp server', baseUrl: 'http://127.0.0.1:8080/v1', model: '' },
  custom: { label: 'Custom (OpenAI-compatible)', baseUrl: '', model: '' },
};

/** The one order presets are offered in, the first-run card and Settings alike. */
export const PRESET_GROUPS: ReadonlyArray<{ label: string; presets: readonly ProviderPresetId[] }> = [
  {
    label: 'Hosted services',
    presets: ['openai', 'anthropic', 'gemini', 'openrouter', 'deepseek', 'groq', 'mistral', 'xai'],
  },
  { label: 'On this computer', presets: ['ollama', 'lmstudio', 'vllm', 'llamacpp'] },
  { label: 'Any other server', presets: ['custom'] },
];

/** A profile's name from its preset: "Custom (OpenAI-compatible)" gives "Custom". */
export const presetProfileName = (preset: ProviderPresetId) => PROVIDER_PRESETS[preset].label.replace(/ \(.*\)$/, '');

export const ProfileId = z.string().trim().min(1).max(64);
export const ModelName = z.string().trim().min(1, { error: 'model must not be empty' }).max(500);

/** Prices in US dollars per million tokens; both optional (none ship). */
export const ModelOptions = z.object({
  contextWindow: z.number().int().min(512).max(100_000_000).optional(),
  inputPrice: z.number().min(0).max(100_000).optional(),
  outputPrice: z.number().min(0).max(100_000).optional(),
  /** Whether the model sees images; absent: guessed from its name (`seesImages`). */
  vision: z.boolean().optional(),
});
export type ModelOptions = z.infer<typeof ModelOptions>;

const HeaderName = z
  .string()
  .regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,100}$/, { error: 'header names are letters, digits and - only' });
const Headers = z.record(
  HeaderName,
  z
    .string()
    .max(4000)
    .regex(/^[^\r\n]*$/, { error: 'header values are one line' }),
);

export const ProviderProfile = z.object({
  id: ProfileId,
  name: z.string().trim().min(1, { error: 'name must not be empty' }).max(100),
  preset: ProviderPresetId,
  baseUrl: z.string().trim().max(2000),
  headers: Headers.default({}),
  defaultModel: z.string().trim().max(500).default(''),
  /** The last list "Load models" brought back (offered by the model picker). */
  models: z.array(z.string().max(500)).max(5000).default([]),
  /** Context windows the server's model list reported. */
  reportedWindows: z.record(z.string().max(500), z.number().int().positive()).default({}),
  /** What the user set per model: context window, prices. */
  modelOptions: z.record(z.string().max(500), ModelOptions).default({}),
  /** False once the server rejected `stream_options` (usage is then not asked for). */
  streamUsage: z.boolean().default(true),
});
export type ProviderProfile = z.infer<typeof ProviderProfile>;

/** A profile as the page edits it: no id means a new profile. */
export const ProfileInput = z.strictObject({
  id: ProfileId.optional(),
  name: ProviderProfile.shape.name,
  preset: ProviderPresetId,
  baseUrl: ProviderProfile.shape.baseUrl,
  headers: Headers.optional(),
  defaultModel: ProviderProfile.shape.defaultModel.optional(),
  modelOptions: z.record(z.string().max(500), ModelOptions).optional(),
});
export type ProfileInput = z.infer<typeof ProfileInput>;

export const ModelRef = z.object({ profileId: ProfileId, model: ModelName });
export type ModelRef = z.infer<typeof ModelRef>;

/** The id of the read-only profile that OPENAI_BASE_URL / OPENAI_API_KEY / STEPWISE_MODEL define. */
export const ENV_PROFILE_ID = 'env';

export const EnvVar = z.enum(['OPENAI_BASE_URL', 'OPENAI_API_KEY', 'STEPWISE_MODEL']);

/**
 * A profile as the renderer sees it. `key`: none, saved, env (from OPENAI_API_KEY), or
 * held — a key is saved but for another address (`keyServer`), so it is not sent until
 * the user confirms.
 */
export const ProfileView = ProviderProfile.extend({
  readOnly: z.boolean(),
  key: z.enum(['none', 'saved', 'env', 'held']),
  keyServer: z.string().nullable(),
  /** Fields an environment variable decides, with the variable's name. */
  locked: z.array(z.object({ field: z.enum(['baseUrl', 'apiKey', 'defaultModel']), variable: EnvVar })),
});
export type ProfileView = z.infer<typeof ProfileView>;

/** Context windows of popular models (prefix match on the name after any `vendor/`). */
const KNOWN_WINDOWS: Array<[RegExp, number]> = [
  [/^gpt-5/, 400_000],
  [/^gpt-4\.1/, 1_047_576],
  [/^(gpt-4o|chatgpt-4o|gpt-4-turbo)/, 128_000],
  [/^gpt-4/, 8_192],
  [/^gpt-3\.5/, 16_385],
  [/^(o1|o3|o4)/, 200_000],
  [/^claude/, 200_000],
  [/^gemini-(1\.5|2|3)/, 1_048_576],
  [/^deepseek/, 128_000],
  [/^grok-4/, 256_000],
  [/^grok/, 131_072],
  [/^(mistral-large|mistral-medium|mistral-small|codestral|ministral)/, 128_000],
  [/^(llama-?3\.[123]|llama3\.[123]|meta-llama-3\.[123])/, 128_000],
  [/^qwen(2\.5|3)/, 32_768],
];

export const DEFAULT_CONTEXT_WINDOW = 32_768;

export function knownContextWindow(model: string): number | undefined {
  const name = model.toLowerCase().split('/').at(-1) ?? '';
  return KNOWN_WINDOWS.find(([pattern]) => pattern.test(name))?.[1];
}

/** The user's value, else the known one, else what the server reported, else 32k. */
export function contextWindowOf(
  profile: Pick<ProviderProfile, 'modelOptions' | 'reportedWindows'>,
  model: string,
): number {
  return (
    profile.modelOptions[model]?.contextWindow ??
    knownContextWindow(model) ??
    profile.reportedWindows[model] ??
    DEFAULT_CONTEXT_WINDOW
  );
}

/** Cost in dollars of one reply, when the user entered both prices for the model. */
export function costOf(
  options: ModelOptions | undefined,
  promptTokens: number,
  completionTokens: number,
): number | null {
  if (options?.inputPrice === undefined || options.outputPrice === undefined) return null;
  return (promptTokens * options.inputPrice + completionTokens * options.outputPrice) / 1_000_000;
}

export const plural = (n: number, one: string, many = `${one}s`) =>
  `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
