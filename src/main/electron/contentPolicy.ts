// The desktop page's Content-Security-Policy, sent as a response header as well as the
// meta tag in index.html (a test keeps the two equal): a header also covers the dev
// server's responses, and holds even if the page's own tag were altered.
import type { Session } from 'electron';
import { SANDBOX_CSP, SANDBOX_PAGE } from '../core/mcp/mcpAppCsp';

export const APP_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; media-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'";

export function installContentPolicy(session: Session): void {
  session.webRequest.onHeadersReceived((details, callback) => {
    // The MCP App sandbox page (a sandboxed frame) has the policy of the apps it holds.
    const policy = details.url.split(/[?#]/)[0].endsWith(`/${SANDBOX_PAGE}`) ? SANDBOX_CSP : APP_CSP;
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [policy] } });
  });
}
