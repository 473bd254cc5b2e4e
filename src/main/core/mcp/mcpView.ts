// What Settings shows of a server: the exact command line or URL, with every secret masked.
import { looksSecret, maskSecret } from '../../../shared/mcp';
import type { ServerConfig } from './mcpConfig';

function quote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** `API_KEY=••••1234 npx -y @scope/server /tmp` or `POST https://…/mcp`. */
export function launchLine(config: ServerConfig): string {
  if (config.transport !== 'stdio') return config.url;
  const env = Object.entries(config.env).map(([k, v]) => `${k}=${maskSecret(v)}`);
  const cwd = config.cwd ? [`(in ${config.cwd})`] : [];
  return [...env, quote(config.command), ...config.args.map(quote), ...cwd].join(' ');
}

/** Values of the server's own configuration that are secrets (by their names), longest first. */
function secretValues(config: ServerConfig): string[] {
  const named = (values: Record<string, string>) =>
    Object.entries(values)
      .filter(([key]) => looksSecret(key))
      .flatMap(([, value]) => [value, value.replace(/^(Bearer|Basic|Token)\s+/i, '')]);
  return [...new Set([...named(config.env), ...named(config.headers)])]
    .filter((v) => v.length >= 6)
    .sort((a, b) => b.length - a.length);
}

/** Masks the server's secrets wherever they show up in text it produced. */
export function redactSecrets(text: string, config: ServerConfig): string {
  return secretValues(config).reduce((out, secret) => out.split(secret).join(maskSecret(secret)), text);
}

/** A server may echo its own keys to stderr; they never reach the renderer. */
export function redactStderr(lines: string[], config: ServerConfig): string[] {
  const all = [...Object.values(config.env), ...Object.values(config.headers)].filter((v) => v.length >= 6);
  return lines.map((line) => all.reduce((text, secret) => text.split(secret).join(maskSecret(secret)), line));
}
