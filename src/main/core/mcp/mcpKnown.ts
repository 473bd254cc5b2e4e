// The servers the user has let Stepwise run, as they were when allowed: a server entry
// written into mcp.json by hand (or by another program) that Stepwise has not seen, or
// one whose command was changed by hand since, stays off until the user turns it on in
// Settings, where its command line is shown. Entries added in Settings or by paste start
// disabled anyway. Kept in <dataDir>/mcp-known.json as hashes of name + launch only (the
// launch may hold keys). On the first start with no such file, every server already
// configured counts as allowed, so an upgrade does not switch anyone's servers off.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { writePrivateFileSync } from '../storage/writePrivateFile';
import type { ServerConfig } from './mcpConfig';

export const KNOWN_FILE = 'mcp-known.json';
const KnownFile = z.object({ allowed: z.array(z.string()) });

/** Name and everything that decides what runs: a change to any of it needs the user again. */
export function launchHash(config: ServerConfig): string {
  const launch = [
    config.name,
    config.transport,
    config.command,
    config.args,
    config.env,
    config.cwd,
    config.url,
    config.headers,
  ];
  return createHash('sha256').update(JSON.stringify(launch)).digest('hex');
}

export function createKnownServers(dataDir: string) {
  const file = path.join(dataDir, KNOWN_FILE);

  function read(): Set<string> | null {
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch {
      return null;
    }
    try {
      return new Set(KnownFile.parse(JSON.parse(text)).allowed);
    } catch {
      // Unreadable: nothing counts as allowed (servers stay off until turned on again).
      return new Set();
    }
  }

  function write(allowed: Set<string>) {
    writePrivateFileSync(file, `${JSON.stringify({ allowed: [...allowed] }, null, 2)}\n`);
  }

  return {
    /**
     * The configuration to run: enabled servers not allowed in their current form come
     * back disabled, and are listed in `held`.
     */
    gate(configs: ServerConfig[]): { configs: ServerConfig[]; held: ServerConfig[] } {
      const allowed = read();
      if (allowed === null) {
        write(new Set(configs.filter((c) => c.enabled).map(launchHash)));
        return { configs, held: [] };
      }
      const held = configs.filter((c) => c.enabled && !allowed.has(launchHash(c)));
      return { configs: configs.map((c) => (held.includes(c) ? { ...c, enabled: false } : c)), held };
    },
    /** The user turned the server on (or saved it) in Settings, as configured now. */
    allow(config: ServerConfig): void {
      const allowed = read() ?? new Set();
      allowed.add(launchHash(config));
      write(allowed);
    },
  };
}

export type KnownServers = ReturnType<typeof createKnownServers>;
