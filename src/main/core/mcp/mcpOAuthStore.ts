// What a sign-in to a remote MCP server leaves behind (tokens, the registered client, the
// discovered authorization server), kept per server in the secret store beside the API
// keys: never in mcp.json or settings.json. Each entry is bound to the server's URL, so a
// changed URL never receives the tokens of the old one.
import { z } from 'zod';

/** One secret slot (the keychain-encrypted store on the desktop, a 0600 file in the browser host). */
export interface SecretSlot {
  read(): string | null;
  write(value: string | null): void;
}

const Json = z.record(z.string(), z.unknown());
const Saved = z.object({
  url: z.string(),
  /** The SDK's tokens, kept exactly as it gave them (with the issuer it stamps on them). */
  tokens: Json.optional(),
  /** The client registered with the authorization server, and the redirect it was registered with. */
  client: Json.optional(),
  redirectUrl: z.string().optional(),
  /** Where discovery found the authorization server (saves a round of discovery on refresh). */
  discovery: Json.optional(),
});
export type SavedAuth = z.infer<typeof Saved>;
const SavedAll = z.record(z.string(), Saved);

export function createOAuthStore(slot: SecretSlot | null) {
  // Without a secret store (a desktop without a keychain) sign-ins last for this launch only.
  let memory: Record<string, SavedAuth> = {};

  function readAll(): Record<string, SavedAuth> {
    if (!slot) return memory;
    try {
      const parsed = SavedAll.safeParse(JSON.parse(slot.read() ?? '{}'));
      return parsed.success ? parsed.data : {};
    } catch {
      return {};
    }
  }

  function writeAll(all: Record<string, SavedAuth>) {
    if (!slot) {
      memory = all;
      return;
    }
    slot.write(Object.keys(all).length ? JSON.stringify(all) : null);
  }

  return {
    /** The server's saved sign-in, if it was made for this URL. */
    get(server: string, url: string): SavedAuth | null {
      const saved = readAll()[server];
      return saved && saved.url === url ? saved : null;
    },
    update(server: string, url: string, change: (saved: SavedAuth) => SavedAuth) {
      const all = readAll();
      const current = all[server]?.url === url ? all[server] : { url };
      all[server] = change(current);
      writeAll(all);
    },
    /** Sign out: the tokens go; the registered client stays, so signing in again asks nothing new of the server. */
    forgetTokens(server: string) {
      const all = readAll();
      if (!all[server]?.tokens) return;
      const { tokens: _gone, ...rest } = all[server];
      all[server] = rest;
      writeAll(all);
    },
    /** The server was removed: everything about it goes. */
    forget(server: string) {
      const all = readAll();
      if (!(server in all)) return;
      delete all[server];
      writeAll(all);
    },
    signedIn(server: string, url: string): boolean {
      return Boolean(this.get(server, url)?.tokens);
    },
  };
}

export type OAuthStore = ReturnType<typeof createOAuthStore>;
