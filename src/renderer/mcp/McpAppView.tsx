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
import { connectApp, hostContext, MAX_HEIGHT, type DisplayMode } from './mcpAppBridge';
import './mcpApp.css';

const SANDBOX_URL = './mcp-app-sandbox.html';
const MIN_HEIGHT = 60;
/** An app that has not started by then gets a note (the sandbox or its script failed). */
const START_TIMEOUT_MS = 30_000;

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

function AppFrame(props: Props & { app: McpAppCall; api: StepwiseApi }) {
  const { app, api } = props;
  const frame = useRef<HTMLIFrameElement>(null);
  const stage = useRef<HTMLDialogElement>(null);
  const bridgeRef = useRef<AppBridgeType | null>(null);
  const [height, setHeight] = useState(160);
  const [problem, setProblem] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [allow, setAllow] = useState<string | null>(null);
  const [mode, setMode] = useState<DisplayMode>('inline');
  const modeRef = useRef<DisplayMode>('inline');
  const label = `App of ${app.tool} (${app.server})`;

  useEffect(() => {
    const iframe = frame.current;
    const target = iframe?.contentWindow;
    if (!iframe || !target) return;
    let closed = false;
    let started = false;
    let bridge: AppBridgeType | null = null;
    const fail = (why: string) => !closed && setProblem(why);
    const timer = setTimeout(() => {
      if (!started) fail(`It did not start within ${START_TIMEOUT_MS / 1000} s.`);
    }, START_TIMEOUT_MS);
    void (async () => {
      try {
        const resource = await call(api, 'mcpApps:resource', { server: app.server, uri: app.resourceUri });
        if (closed) return;
        setAllow(resource.allow);
        bridge = await connectApp(target, {
          api,
          conversationId: props.conversationId,
          toolCallId: props.toolCallId,
          app,
          resource,
          arguments: parsedArguments(props.arguments),
          result: app.result ?? resultFromText(props.resultText, props.isError),
          container: () => ({
            width: iframe.clientWidth,
            height: iframe.clientHeight,
            mode: modeRef.current,
          }),
          onSize: (next) => !closed && setHeight(Math.max(MIN_HEIGHT, Math.min(MAX_HEIGHT, Math.ceil(next)))),
          onDisplayMode: (next) => {
            if (closed) return modeRef.current;
            modeRef.current = next;
            setMode(next);
            return next;
          },
          onNotice: (text) => !closed && setNotice(text),
          onInitialized: () => void (started = true),
        });
        if (closed) return;
        bridgeRef.current = bridge;
        iframe.src = SANDBOX_URL;
      } catch (error) {
        fail(error instanceof Error ? error.message : String(error));
      }
    })();
    return () => {
      closed = true;
      clearTimeout(timer);
      bridgeRef.current = null;
      const open = bridge;
      if (open)
        void open
          .teardownResource({}, { timeout: 500 })
          .catch(() => undefined)
          .finally(() => open.close());
    };
  }, [api, app, props.arguments, props.conversationId, props.toolCallId, props.isError, props.resultText]);

  // The frame never moves in the document (that would reload the app): the same <dialog> is
  // shown in place (closed, displayed by its CSS), or as a modal over the window for full screen.
  useEffect(() => {
    modeRef.current = mode;
    const dialog = stage.current;
    if (!dialog) return;
    // Inline it stays closed and is shown by its CSS: `show()` would move the focus into it.
    if (mode === 'fullscreen' && !dialog.open) dialog.showModal();
    else if (mode === 'inline' && dialog.open) dialog.close();
    const iframe = frame.current;
    if (bridgeRef.current && iframe)
      bridgeRef.current.setHostContext(
        hostContext({ container: () => ({ width: iframe.clientWidth, height: iframe.clientHeight, mode }) }),
      );
  }, [mode, problem]);

  if (problem)
    return (
      <p className="mcp-app-problem" role="note">
        The app of this tool could not be shown: {problem} The tool's text result is in the step above.
      </p>
    );
  const fullscreen = mode === 'fullscreen';
  return (
    <div className="mcp-app" role="group" aria-label={label}>
      <div className="mcp-app-bar">
        <span className="mcp-app-name">{label}</span>
        <button type="button" aria-label={`Open ${label}`} onClick={() => setMode('fullscreen')}>
          Open
        </button>
      </div>
      {notice && (
        <p className="mcp-app-notice" role="status">
          {notice}
        </p>
      )}
      <dialog
        ref={stage}
        className={`mcp-app-stage${fullscreen ? ' mcp-app-fullscreen' : ''}`}
        {...(fullscreen ? { 'aria-label': label } : { role: 'none' })}
        // However it closed (Esc may close it despite onCancel), the app is inline again.
        onClose={() => setMode('inline')}
        onCancel={(event) => {
          event.preventDefault();
          setMode('inline');
        }}
      >
        {fullscreen && (
          <div className="mcp-app-bar">
            <span className="mcp-app-name">{label}</span>
            <button type="button" onClick={() => setMode('inline')}>
              Close
            </button>
          </div>
        )}
        <iframe
          ref={frame}
          title={label}
          sandbox="allow-scripts"
          referrerPolicy="no-referrer"
          {...(allow ? { allow } : {})}
          style={fullscreen ? undefined : { height }}
        />
      </dialog>
    </div>
  );
}
