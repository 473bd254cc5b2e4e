// The Content-Security-Policy of an MCP App, as the ext-apps spec asks: nothing from the
// network unless the resource's `_meta.ui.csp` names the origins, inline script and style
// allowed (apps ship as one HTML file). It goes into the document as its first meta tag,
// inside a frame whose own policy (the sandbox page's, below) is the outer bound.

/** The sandbox page (`mcp-app-sandbox.html`): the widest any app may get; an app's own policy narrows it. */
export const SANDBOX_PAGE = 'mcp-app-sandbox.html';
export const SANDBOX_CSP = [
  "default-src 'none'",
  "script-src 'unsafe-inline' https:",
  "style-src 'unsafe-inline' https:",
  'img-src data: blob: https:',
  'font-src data: https:',
  'media-src data: blob: https:',
  'connect-src https: wss:',
  'frame-src https:',
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

export interface AppCspMeta {
  connectDomains?: unknown;
  resourceDomains?: unknown;
  frameDomains?: unknown;
  baseUriDomains?: unknown;
}

/** An origin the policy may name: https or wss, a host (`*.` allowed), an optional port; nothing that could end a directive. */
const ORIGIN = /^(https|wss):\/\/(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*(:\d{1,5})?$/i;

function origins(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value.filter((v): v is string => typeof v === 'string' && ORIGIN.test(v)).slice(0, 50);
}

export function appCsp(meta: AppCspMeta | undefined): string {
  const resource = origins(meta?.resourceDomains).join(' ');
  const connect = origins(meta?.connectDomains).join(' ');
  const frame = origins(meta?.frameDomains).join(' ');
  const base = origins(meta?.baseUriDomains).join(' ');
  const plus = (list: string) => (list ? ` ${list}` : '');
  return [
    "default-src 'none'",
    `script-src 'unsafe-inline'${plus(resource)}`,
    `style-src 'unsafe-inline'${plus(resource)}`,
    `img-src data: blob:${plus(resource)}`,
    `font-src data:${plus(resource)}`,
    `media-src data: blob:${plus(resource)}`,
    `connect-src ${connect || "'none'"}`,
    `frame-src ${frame || "'none'"}`,
    "object-src 'none'",
    `base-uri ${base || "'none'"}`,
    "form-action 'none'",
  ].join('; ');
}

/**
 * The document with the policy before anything else it holds (after its doctype): the parser
 * puts a leading meta into the head it opens, so no comment or script of the app comes first.
 */
export function withCsp(html: string, csp: string): string {
  const meta = `<meta http-equiv="Content-Security-Policy" content="${csp.replace(/"/g, '&quot;')}">`;
  const doctype = /^\s*<!doctype[^>]*>/i.exec(html);
  const at = doctype ? doctype[0].length : 0;
  return `${html.slice(0, at)}${meta}${html.slice(at)}`;
}

const PERMISSIONS: Record<string, string> = {
  camera: 'camera',
  microphone: 'microphone',
  geolocation: 'geolocation',
  clipboardWrite: 'clipboard-write',
};

/** The frame's `allow` attribute for the permissions the resource asks for (ext-apps' buildAllowAttribute). */
export function allowAttribute(permissions: unknown): string {
  if (!permissions || typeof permissions !== 'object') return '';
  return Object.keys(permissions)
    .map((key) => PERMISSIONS[key])
    .filter(Boolean)
    .join('; ');
}
