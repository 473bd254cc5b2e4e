// What Settings shows of a server: the exact command line or URL, with every secret masked.
import { maskSecret } from '../../../shared/mcp';
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

/** A server may echo its own keys to stderr; they never reach the renderer. */
export function redactStderr(lines: string[], config: ServerConfig): string[] {
  const secrets = [...Object.values(config.env), ...Object.values(config.headers)].filter((v) => v.length >= 6);
  return lines.map((line) => secrets.reduce((text, secret) => text.split(secret).join(maskSecret(secret)), line));
}
