// The MCP App sandbox's policies: an app's own CSP from its resource metadata (origins it
// names, nothing that could end a directive), placed before anything the app's document
// holds, and the sandbox page's policy kept equal to the one the hosts send.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { allowAttribute, appCsp, SANDBOX_CSP, SANDBOX_PAGE, withCsp } from '../../src/main/core/mcp/mcpAppCsp';
import { appResourceUri } from '../../src/main/core/mcp/mcpApps';

const directive = (csp: string, name: string) =>
  csp
    .split('; ')
    .find((d) => d.startsWith(`${name} `))
    ?.slice(name.length + 1);

describe('MCP App CSP', () => {
  it('allows no network without metadata', () => {
    const csp = appCsp(undefined);
    expect(directive(csp, 'default-src')).toBe("'none'");
    expect(directive(csp, 'connect-src')).toBe("'none'");
    expect(directive(csp, 'frame-src')).toBe("'none'");
    expect(directive(csp, 'script-src')).toBe("'unsafe-inline'");
  });

  it('adds the origins the resource names, and drops anything else', () => {
    const csp = appCsp({
      connectDomains: ['https://api.example.com', "https://x.com; script-src 'unsafe-eval'", 'http://plain.example'],
      resourceDomains: ['https://*.cdn.example', 42, "'self'"],
      frameDomains: ['https://www.youtube.com'],
    });
    expect(directive(csp, 'connect-src')).toBe('https://api.example.com');
    expect(directive(csp, 'script-src')).toBe("'unsafe-inline' https://*.cdn.example");
    expect(directive(csp, 'frame-src')).toBe('https://www.youtube.com');
    expect(csp).not.toContain('unsafe-eval');
    expect(csp).not.toContain("'self'");
  });

  it('puts the policy first, after the doctype, whatever the document starts with', () => {
    const html = '<!DOCTYPE html><!-- <head> --><html><head><script>1</script></head></html>';
    const out = withCsp(html, "default-src 'none'");
    expect(out.startsWith('<!DOCTYPE html><meta http-equiv="Content-Security-Policy"')).toBe(true);
    expect(out.indexOf('Content-Security-Policy')).toBeLessThan(out.indexOf('<script>'));
    expect(withCsp('<p>hi</p>', 'x').startsWith('<meta ')).toBe(true);
    expect(withCsp('<p>hi</p>', 'a "b"')).toContain('content="a &quot;b&quot;"');
  });

  it('the sandbox page carries the policy the hosts send with it', () => {
    const page = fs.readFileSync(new URL(`../../src/renderer/public/${SANDBOX_PAGE}`, import.meta.url), 'utf8');
    const meta = /http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(page)?.[1];
    expect(meta).toBe(SANDBOX_CSP);
  });

  it('maps requested permissions to the frame allow attribute', () => {
    expect(allowAttribute({ camera: {}, clipboardWrite: {}, unknown: {} })).toBe('camera; clipboard-write');
    expect(allowAttribute(null)).toBe('');
  });

  it("finds a tool's ui:// resource in either metadata form", () => {
    const tool = (meta: Record<string, unknown>) => ({
      name: 't',
      inputSchema: { type: 'object' as const },
      _meta: meta,
    });
    expect(appResourceUri(tool({ ui: { resourceUri: 'ui://a/app.html' } }))).toBe('ui://a/app.html');
    expect(appResourceUri(tool({ 'ui/resourceUri': 'ui://b/app.html' }))).toBe('ui://b/app.html');
    expect(appResourceUri(tool({ ui: { resourceUri: 'https://evil.example/app.html' } }))).toBeNull();
  });
});
