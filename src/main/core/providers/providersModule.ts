// Provider profiles and models: which server and model each request goes to. Owns the
// profiles in settings, their keys (through the host's SecretStore), the per-conversation
// choice, the model lists, and the contract calls for all of it. createCore composes it.
import { randomUUID } from 'node:crypto';
import { NotFoundError } from 'openai';
import {
  contextWindowOf,
  ENV_PROFILE_ID,
  type ModelRef,
  type ProfileInput,
  type ProfileView,
  type ProviderProfile,
} from '../../../shared/providers';
import { isUsableProfile } from '../../../shared/firstRun';
import type { SettingsView } from '../../../shared/settings';
import type { ConversationRepo } from '../conversations/conversationRepo';
import type { MessageRepo } from '../conversations/messageRepo';
import { AppError, notFound } from '../ipc/dispatcher';
import type { EventBus } from '../ipc/eventBus';
import { hostOf, toChatError } from '../llm/chatErrors';
import { createClient, type ClientOptions } from '../llm/openaiClient';
import type { SecretStore, SettingsEnv, SettingsService } from '../settings/settingsService';
import type { Connection, ModelRole } from '../llm/connection';
import { envProfile } from './envProfile';
import { FIRST_PROFILE_ID } from '../settings/legacySettings';
import { createProfileKeys } from './profileKeys';
import type { HandlersFor } from '../../../shared/contract';
import type { providerCalls } from '../../../shared/providersContract';

export interface ProvidersDeps {
  settings: SettingsService;
  secrets: SecretStore;
  env: SettingsEnv;
  conversations: ConversationRepo;
  messages: Pick<MessageRepo, 'usageTotal'>;
  bus: EventBus;
  client: ClientOptions;
}

export function createProviders(deps: ProvidersDeps) {
  const { settings, env, conversations, bus } = deps;
  const keys = createProfileKeys(
    deps.secrets,
    () => settings.effective().profiles.find((p) => p.id === FIRST_PROFILE_ID)?.baseUrl,
  );

  function environment() {
    return envProfile(
      env,
      settings.effective().profiles.find((p) => p.id === ENV_PROFILE_ID),
    );
  }

  /** Every usable profile: the Environment one first (when set), then the stored ones. */
  function profiles(): Array<{ profile: ProviderProfile; locked: ProfileView['locked'] }> {
    const fromEnv = environment();
    const stored = settings
      .effective()
      .profiles.filter((p) => p.id !== ENV_PROFILE_ID)
      .map((profile) => ({ profile, locked: [] }));
    return fromEnv ? [fromEnv, ...stored] : stored;
  }

  function find(profileId: string) {
    return profiles().find((p) => p.profile.id === profileId);
  }

  function keyState(profile: ProviderProfile): {
    key: string | null;
    state: ProfileView['key'];
    heldFor: string | null;
  } {
    if (profile.id === ENV_PROFILE_ID) {
      const key = env.OPENAI_API_KEY?.trim();
      return key ? { key, state: 'env', heldFor: null } : { key: null, state: 'none', heldFor: null };
    }
    const saved = keys.get(profile.id);
    if (!saved) return { key: null, state: 'none', heldFor: null };
    if (saved.baseUrl.trim() !== profile.baseUrl.trim()) return { key: null, state: 'held', heldFor: saved.baseUrl };
    return { key: saved.key, state: 'saved', heldFor: null };
  }

  /** A profile that can be asked: a keyless server with an address, or a hosted one with its key. */
  const usable = (profile: ProviderProfile) => isUsableProfile({ ...profile, key: keyState(profile).state });

  /** The last choice if its profile still exists; else the first usable profile (the Environment one when set); else the first. */
  function defaultModel(): ModelRef | null {
    const last = settings.effective().lastModel;
    if (last && find(last.profileId)) return last;
    const all = profiles();
    const first = (all.find((p) => usable(p.profile) && p.profile.defaultModel) ?? all[0])?.profile;
    return first && first.defaultModel ? { profileId: first.id, model: first.defaultModel } : null;
  }

  function connect(ref: ModelRef | null): Connection {
    const entry = (ref && find(ref.profileId)) ?? find(defaultModel()?.profileId ?? '') ?? profiles()[0];
    if (!entry) {
      throw new AppError('unavailable', 'No provider is set up. Add one in Settings.');
    }
    const { profile, locked } = entry;
    const model = (ref && ref.profileId === profile.id ? ref.model : profile.defaultModel).trim();
    const key = keyState(profile);
    return {
      profileId: profile.id,
      profileName: profile.name,
      baseUrl: profile.baseUrl,
      headers: profile.headers,
      apiKey: key.key,
      heldFor: key.heldFor,
      model,
      contextWindow: contextWindowOf(profile, model),
      modelOptions: profile.modelOptions[model],
      streamUsage: profile.streamUsage,
      locked,
    };
  }

  /** The connection for a conversation (a worker's transcript resolves through its parent's id). */
  function forConversation(conversationId: string, role: ModelRole = 'main'): Connection {
    const own = settings.effective();
    const special = role === 'worker' ? own.workerModel : role === 'assessor' ? own.assessorModel : null;
    if (special && find(special.profileId)) return connect(special);
    return connect(conversations.get(conversationId)?.model ?? defaultModel());
  }

  function view(): SettingsView {
    const current = settings.effective();
    return {
      ...current,
      profiles: profiles().map(({ profile, locked }) => {
        const key = keyState(profile);
        return { ...profile, readOnly: profile.id === ENV_PROFILE_ID, key: key.state, keyServer: key.heldFor, locked };
      }),
      defaultModel: defaultModel(),
      canStoreKey: keys.canStore,
    };
  }

  function changed(): SettingsView {
    const next = view();
    bus.emit('settings:changed', next);
    return next;
  }

  function updateProfile(profileId: string, change: (profile: ProviderProfile) => ProviderProfile) {
    settings.change((current) => {
      const exists = current.profiles.some((p) => p.id === profileId);
      const base = exists ? current.profiles : [...current.profiles, environment()!.profile];
      return { ...current, profiles: base.map((p) => (p.id === profileId ? change(p) : p)) };
    });
  }

  function mustFind(profileId: string) {
    const entry = find(profileId);
    if (!entry) throw notFound(`Provider profile ${profileId}`);
    return entry;
  }

  function mustBeEditable(profileId: string) {
    const entry = mustFind(profileId);
    if (entry.profile.id === ENV_PROFILE_ID) {
      throw new AppError(
        'conflict',
        'The "Environment" profile is set by OPENAI_BASE_URL, OPENAI_API_KEY and STEPWISE_MODEL and is read-only. Change the variables, or add a profile of your own.',
      );
    }
    return entry;
  }

  function save(input: ProfileInput): SettingsView {
    if (input.id === ENV_PROFILE_ID) {
      // Only model details (context windows, prices) of the Environment profile are the user's.
      if (input.modelOptions) updateProfile(ENV_PROFILE_ID, (p) => ({ ...p, modelOptions: input.modelOptions! }));
      return changed();
    }
    const previous = input.id ? mustBeEditable(input.id).profile : null;
    const id = input.id ?? randomUUID();
    const next: ProviderProfile = {
      ...(previous ?? {
        models: [],
        reportedWindows: {},
        modelOptions: {},
        streamUsage: true,
        headers: {},
        defaultModel: '',
      }),
      id,
      name: input.name,
      preset: input.preset,
      baseUrl: input.baseUrl,
      headers: input.headers ?? previous?.headers ?? {},
      defaultModel: input.defaultModel ?? previous?.defaultModel ?? '',
      modelOptions: input.modelOptions ?? previous?.modelOptions ?? {},
      // A new address may well support what the old one did not.
      streamUsage: previous && previous.baseUrl === input.baseUrl ? previous.streamUsage : true,
    };
    settings.change((current) => ({
      ...current,
      profiles: previous ? current.profiles.map((p) => (p.id === id ? next : p)) : [...current.profiles, next],
    }));
    return changed();
  }

  /** `fieldsShown`: the caller's form shows the profile's fields, so errors name them, not Settings. */
  async function listModels(profileId: string | undefined, fieldsShown = false): Promise<string[]> {
    const connection = {
      ...(profileId
        ? connect({ profileId, model: mustFind(profileId).profile.defaultModel || '-' })
        : connect(defaultModel())),
      fieldsShown,
    };
    const host = hostOf(connection.baseUrl);
    const reported: Record<string, number> = {};
    try {
      const { client } = createClient(
        { ...connection, heldFor: null },
        { ...deps.client, maxRetries: 1 },
        { model: false },
      );
      if (connection.heldFor)
        throw new AppError(
          'unavailable',
          `The saved key of "${connection.profileName}" is for ${hostOf(connection.heldFor)}; confirm it for ${host} first.`,
        );
      const ids: string[] = [];
      for await (const model of client.models.list()) {
        if (typeof model?.id !== 'string' || !model.id) continue;
        ids.push(model.id);
        const window = reportedWindow(model);
        if (window) reported[model.id] = window;
        if (ids.length >= 5000) break;
      }
      if (!ids.length) throw new AppError('unavailable', `${host} lists no models. Type the model name instead.`);
      const sorted = [...new Set(ids)].sort((a, b) => a.localeCompare(b));
      updateProfile(connection.profileId, (p) => ({ ...p, models: sorted, reportedWindows: reported }));
      changed();
      return sorted;
    } catch (error) {
      if (error instanceof AppError) throw error;
      if (error instanceof NotFoundError) {
        throw new AppError(
          'unavailable',
          `${host} does not offer a model list (/models). Type the model name instead.`,
        );
      }
      throw new AppError(
        'unavailable',
        toChatError(error, { model: '', baseUrl: connection.baseUrl, apiKey: connection.apiKey, connection }).message,
      );
    }
  }

  const handlers: HandlersFor<typeof providerCalls> = {
    // Settings are read and changed through the providers' view: profiles with their key state.
    'settings:get': () => view(),
    'settings:update': ({ patch }) => {
      settings.update(patch);
      return changed();
    },
    'providers:save': ({ profile }) => save(profile),
    'providers:delete': ({ id }) => {
      mustBeEditable(id);
      keys.set(id, null, '');
      settings.change((current) => ({
        ...current,
        profiles: current.profiles.filter((p) => p.id !== id),
        lastModel: current.lastModel?.profileId === id ? null : current.lastModel,
        workerModel: current.workerModel?.profileId === id ? null : current.workerModel,
        assessorModel: current.assessorModel?.profileId === id ? null : current.assessorModel,
      }));
      return changed();
    },
    'providers:setKey': ({ id, key }) => {
      const { profile } = mustBeEditable(id);
      if (key !== null && !keys.canStore) {
        throw new AppError(
          'unavailable',
          'This system has no keychain to encrypt the API key; set OPENAI_API_KEY instead.',
        );
      }
      keys.set(id, key, profile.baseUrl);
      return changed();
    },
    'providers:confirmKey': ({ id }) => {
      const { profile } = mustBeEditable(id);
      keys.rebind(id, profile.baseUrl);
      return changed();
    },
    'models:list': async ({ profileId, fieldsShown }) => ({ models: await listModels(profileId, fieldsShown) }),
    'conversations:usage': ({ id }) => {
      if (!conversations.get(id)) throw notFound(`Conversation ${id}`);
      return deps.messages.usageTotal(id);
    },
    'conversations:setModel': ({ id, model }) => {
      if (!conversations.get(id)) throw notFound(`Conversation ${id}`);
      mustFind(model.profileId);
      const updated = conversations.setModel(id, model)!;
      settings.change((current) => ({ ...current, lastModel: model }));
      changed();
      bus.emit('conversations:changed', { id, kind: 'updated', conversation: conversations.summary(id) ?? null });
      return updated;
    },
  };

  conversations.setNewModelLookup(defaultModel);

  return {
    view,
    defaultModel,
    connect,
    forConversation,
    /** The server rejected `stream_options`: never ask this profile for usage again. */
    noStreamUsage(profileId: string) {
      if (!find(profileId)) return;
      updateProfile(profileId, (p) => ({ ...p, streamUsage: false }));
      changed();
    },
    /** Every key in use, for redacting server texts and log lines. */
    secrets(): string[] {
      return [...keys.all(), ...(env.OPENAI_API_KEY ? [env.OPENAI_API_KEY] : [])];
    },
    handlers,
  };
}

/** The context length a model list reports: OpenRouter, vLLM, Groq and LM Studio each name it differently. */
function reportedWindow(model: object): number | undefined {
  const record = model as Record<string, unknown>;
  for (const field of ['context_length', 'max_model_len', 'context_window', 'max_context_length']) {
    const value = record[field];
    if (typeof value === 'number' && Number.isInteger(value) && value > 0) return value;
  }
  return undefined;
}

export type Providers = ReturnType<typeof createProviders>;
