// The desktop page's Content-Security-Policy, sent as a response header as well as the
// meta tag in index.html (a test keeps the two equal): a header also covers the dev
// server's responses, and holds even if the page's own tag were altered.
import type { Session } from 'electron';

export const APP_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'";

export function installContentPolicy(session: Session): void {
  session.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [APP_CSP] } });
  });
}
