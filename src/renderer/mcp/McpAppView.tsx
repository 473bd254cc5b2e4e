// An MCP App in its tool step (docs/tools.md, "MCP Apps"): the tool's `ui://` document in a
// sandboxed frame (the sandbox page, which holds the app in a second sandboxed frame), linked
// through ext-apps' AppBridge. Everything the app asks for goes through main: its tool calls
// meet the same plan gate and approvals as the model's. Torn down when the step unmounts
// (the message list drops steps scrolled far away) or the conversation closes.
import { useEffect, useRef, useState } from 'react';
import type { McpAppCall, McpAppToolResult } from '../../shared/mcpAppsContract';
import { call, useApi } from '../api/apiContext';
import type { StepwiseApi } from '../../shared/ipc';
import type { AppBridge as AppBridgeType } from '@modelcontextprotocol/ext-apps/app-bridge';
import './mcpApp.css';

const SANDBOX_URL = './mcp-app-sandbox.html';
const MIN_HEIGHT = 60;
const MAX_HEIGHT = 800;

type Props = {
  conversationId: string;
  toolCallId: string;
  toolName: string;
  arguments: string;
  /** The step's stored result text: what the app is sent when main no longer has the raw result. */
  resultText: string;
  isError: boolean;
};

export function McpAppView(props: Props) {
  const api = useApi();
  const [app, setApp] = useState<McpAppCall | null>(null);
  const { conversationId, toolCallId, toolName } = props;
  useEffect(() => {
    let current = true;
    call(api, 'mcpApps:forCall', { conversationId, toolCallId, toolName }).then(
      (value) => current && setApp(value),
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [api, conversationId, toolCallId, toolName]);
  if (!app) return null;
  return <AppFrame {...props} app={app} api={api} />;
}

function parsedArguments(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text || '{}');
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** The stored text as a tool result; JSON text (a structured result) is also its structured content. */
function resultFromText(text: string, isError: boolean): McpAppToolResult {
  let structured: Record<string, unknown> | undefined;
  try {
    const value: unknown = JSON.parse(text);
    if (value && typeof value === 'object' && !Array.isArray(value)) structured = value as Record<string, unknown>;
  } catch {
    // Plain text.
  }
  return {
    content: [{ type: 'text', text }],
    ...(structured ? { structuredContent: structured } : {}),
    ...(isError ? { isError: true } : {}),
  };
}

function theme(): 'light' | 'dark' {
  return document.documentElement.dataset.theme === 'dark' ? 'dark' : 'light';
}

function AppFrame(props: Props & { app: McpAppCall; api: StepwiseApi }) {
  const { app, api } = props;
  const frame = useRef<HTMLIFrameElement>(null);
  const [height, setHeight] = useState(160);
  const [problem, setProblem] = useState<string | null>(null);
  const [allow, setAllow] = useState<string | null>(null);
  const [large, setLarge] = useState(false);
  const label = `App of ${app.tool} (${app.server})`;

  useEffect(() => {
    const iframe = frame.current;
    const target = iframe?.contentWindow;
    if (!iframe || !target) return;
    let closed = false;
    let bridge: AppBridgeType | null = null;
    void (async () => {
      try {
        const [{ AppBridge, PostMessageTransport }, resource] = await Promise.all([
          import('@modelcontextprotocol/ext-apps/app-bridge'),
          call(api, 'mcpApps:resource', { server: app.server, uri: app.resourceUri }),
        ]);
        if (closed) return;
        setAllow(resource.allow);
        bridge = new AppBridge(
          null,
          { name: 'Stepwise', version: '1' },
          { openLinks: {}, serverTools: {}, logging: {} },
          {
            hostContext: {
              theme: theme(),
              displayMode: 'inline',
              availableDisplayModes: ['inline'],
              platform: 'desktop',
              locale: navigator.language,
              containerDimensions: { maxHeight: MAX_HEIGHT, width: iframe.clientWidth },
            },
          },
        );
        bridge.addEventListener('sandboxready', () => {
          void bridge?.sendSandboxResourceReady({ html: resource.html, sandbox: 'allow-scripts' });
        });
        bridge.addEventListener('initialized', () => {
          void bridge?.sendToolInput({ arguments: parsedArguments(props.arguments) });
          // Main checked the blocks against MCP's schema when the server answered.
          const result = app.result ?? resultFromText(props.resultText, props.isError);
          void bridge?.sendToolResult(result as Parameters<AppBridgeType['sendToolResult']>[0]);
        });
        bridge.addEventListener('sizechange', ({ height: next }) => {
          if (typeof next === 'number') setHeight(Math.max(MIN_HEIGHT, Math.min(MAX_HEIGHT, Math.ceil(next))));
        });
        bridge.oncalltool = async (params) =>
          (await call(api, 'mcpApps:callTool', {
            conversationId: props.conversationId,
            server: app.server,
            name: params.name,
            arguments: params.arguments ?? {},
          })) as never;
        bridge.onopenlink = async ({ url }) => {
          // Only web pages, opened outside the app (the system browser, or a new tab).
          if (!/^https?:\/\//i.test(url)) return { isError: true };
          window.open(url, '_blank', 'noopener,noreferrer');
          return {};
        };
        await bridge.connect(new PostMessageTransport(target, target));
        if (closed) return;
        iframe.src = SANDBOX_URL;
      } catch (error) {
        if (!closed) setProblem(error instanceof Error ? error.message : String(error));
      }
    })();
    return () => {
      closed = true;
      const open = bridge;
      if (open)
        void open
          .teardownResource({}, { timeout: 500 })
          .catch(() => undefined)
          .finally(() => open.close());
    };
  }, [api, app, props.arguments, props.conversationId, props.isError, props.resultText]);

  if (problem)
    return (
      <p className="mcp-app-problem" role="note">
        The app of this tool could not be shown: {problem} The tool's text result is in the step above.
      </p>
    );
  return (
    <div className={`mcp-app${large ? ' mcp-app-large' : ''}`} role="group" aria-label={label}>
      <div className="mcp-app-bar">
        <span className="mcp-app-name">{label}</span>
        <button type="button" onClick={() => setLarge((v) => !v)} aria-pressed={large}>
          {large ? 'Smaller' : 'Larger'}
        </button>
      </div>
      <iframe
        ref={frame}
        title={label}
        sandbox="allow-scripts"
        referrerPolicy="no-referrer"
        {...(allow ? { allow } : {})}
        style={{ height: large ? Math.max(height, 600) : height }}
      />
    </div>
  );
}
