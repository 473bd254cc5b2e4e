// Everything one request needs to know about where it goes: resolved from a profile and
// a model by the providers module, used by the agent loop, titles and the assessor.
import type { ModelOptions, ProfileView } from '../../../shared/providers';

export interface Connection {
  profileId: string;
  profileName: string;
  baseUrl: string;
  headers: Record<string, string>;
  /** Null when no key is saved, or the saved one belongs to another address (`heldFor`). */
  apiKey: string | null;
  /** The address the saved key was saved for, when it is not this one. */
  heldFor: string | null;
  model: string;
  contextWindow: number;
  modelOptions: ModelOptions | undefined;
  /** Ask for usage with `stream_options` (false once the server rejected it). */
  streamUsage: boolean;
  /** Fields an environment variable decides (the Environment profile). */
  locked: ProfileView['locked'];
  /** The user is looking at this profile's fields (the first-run card): errors name them, not Settings. */
  fieldsShown?: boolean;
}

const FIELD_LABELS = { baseUrl: 'Base URL', apiKey: 'API key', defaultModel: 'Model' } as const;

/** Where the user fixes a field: the variable that locks it, the field in view, or Settings. */
export function fixIn(
  connection: Pick<Connection, 'locked' | 'profileName' | 'fieldsShown'> | undefined,
  field: 'baseUrl' | 'apiKey' | 'defaultModel',
): string {
  const lock = connection?.locked.find((l) => l.field === field);
  if (lock)
    return `in the ${lock.variable} environment variable (the "${connection!.profileName}" profile is read-only), then restart Stepwise`;
  if (connection?.fieldsShown) return `in the "${FIELD_LABELS[field]}" field`;
  return connection ? `in Settings (profile "${connection.profileName}")` : 'in Settings';
}

/** Which agent a request is for: each may have a model of its own (Settings → Models). */
export type ModelRole = 'main' | 'worker' | 'assessor';

/** What requests need of the provider profiles; the providers module is the one owner. */
export interface ConnectionSource {
  forConversation(conversationId: string, role?: ModelRole): Connection;
  /** The server rejected `stream_options`: never ask this profile for usage again. */
  noStreamUsage(profileId: string): void;
  /** Every key in use, for redacting server texts and log lines. */
  secrets(): string[];
}
