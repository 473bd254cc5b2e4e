// Settings, provider profiles and their keys, model lists, and each conversation's model
// and usage: this feature's part of the IPC contract (merged into shared/ipc.ts).
import { z } from 'zod';
import { call, Empty } from './contract';
import { Conversation, ConversationId } from './domain';
import { ModelRef, ProfileId, ProfileInput } from './providers';
import { SettingsPatch, SettingsView } from './settings';

export const providerCalls = {
  'settings:get': call(Empty, SettingsView),
  'settings:update': call(z.strictObject({ patch: SettingsPatch }), SettingsView),
  /** Creates (no id) or changes a provider profile. A changed base URL does not get the saved key until confirmed. */
  'providers:save': call(z.strictObject({ profile: ProfileInput }), SettingsView),
  'providers:delete': call(z.strictObject({ id: ProfileId }), SettingsView),
  /** Stores (or with null, forgets) a profile's API key, for its current address. The key never comes back out. */
  'providers:setKey': call(z.strictObject({ id: ProfileId, key: z.string().max(4096).nullable() }), SettingsView),
  /** "Send the saved key to …?" — yes: the saved key follows the profile to its new address. */
  'providers:confirmKey': call(z.strictObject({ id: ProfileId }), SettingsView),
  /** Lists the models a profile's server offers at /models (default: the default profile) and remembers them. */
  'models:list': call(
    // fieldsShown: the caller shows the profile's fields (the first-run card), so errors name them.
    z.strictObject({ profileId: ProfileId.optional(), fieldsShown: z.boolean().optional() }),
    z.object({ models: z.array(z.string()) }),
  ),
  /** Tokens (and cost, where prices were set) the server reported over the whole conversation. */
  'conversations:usage': call(
    z.strictObject({ id: ConversationId }),
    z.object({ promptTokens: z.number().int(), completionTokens: z.number().int(), cost: z.number().nullable() }),
  ),
  /** Chooses the profile and model of a conversation (and of new conversations from now on). */
  'conversations:setModel': call(z.strictObject({ id: ConversationId, model: ModelRef }), Conversation),
} as const;

export const providerEvents = {
  'settings:changed': SettingsView,
} as const;
