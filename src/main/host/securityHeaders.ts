// The headers of every response the browser host sends: the page's policy (the socket of
// this host only), no sniffing, no referrer, and a window of its own that no other site's
// page can script (Cross-Origin-Opener-Policy: the browser opens it in a process of its own).
import { SANDBOX_CSP } from '../core/mcp/mcpAppCsp';

export function securityHeaders(port: number): Record<string, string> {
  return {
    'Content-Security-Policy': [
      "default-src 'self'",
      "script-src 'self'",
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data:",
      // MCP audio content plays from its bytes (docs/tools.md).
      "media-src 'self' data:",
      `connect-src 'self' ws://127.0.0.1:${port} ws://localhost:${port}`,
      "object-src 'none'",
      "base-uri 'none'",
      "frame-ancestors 'none'",
      "form-action 'none'",
    ].join('; '),
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cross-Origin-Opener-Policy': 'same-origin',
  };
}

/**
 * The MCP App sandbox page is framed by the app (sandboxed, so its origin is opaque) and holds
 * the app's document: its policy is the widest any app may get, and only this page may frame it.
 */
export function sandboxHeaders(): Record<string, string> {
  return {
    'Content-Security-Policy': `${SANDBOX_CSP}; frame-ancestors 'self'`,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
  };
}
