// The host side of one MCP App (docs/tools.md, "MCP Apps"): ext-apps' AppBridge over the
// sandbox frame's window. Everything the app asks for goes through main: its tool calls meet
// the same plan gate and approvals as the model's, its messages are sent as the user's, its
// model context waits for the conversation's next request.
import type { McpAppCall, McpAppResource, McpAppToolResult } from '../../shared/mcpAppsContract';
import type { StepwiseApi } from '../../shared/ipc';
import { call } from '../api/apiContext';
import type { AppBridge } from '@modelcontextprotocol/ext-apps/app-bridge';

export type DisplayMode = 'inline' | 'fullscreen';
export const DISPLAY_MODES: DisplayMode[] = ['inline', 'fullscreen'];
export const MAX_HEIGHT = 800;

export interface AppHost {
  api: StepwiseApi;
  conversationId: string;
  toolCallId: string;
  app: McpAppCall;
  resource: McpAppResource;
  arguments: Record<string, unknown>;
  result: McpAppToolResult;
  /** The frame's size and mode now (the app is told when they change). */
  container(): { width: number; height: number; mode: DisplayMode };
  onSize(height: number): void;
  /** The app asks for another display mode; answers the mode it is in afterwards. */
  onDisplayMode(mode: DisplayMode): DisplayMode;
  /** Something the app did not get, for the step's note (a refused message). */
  onNotice(text: string): void;
  onInitialized(): void;
}

function theme(): 'light' | 'dark' {
  return document.documentElement.dataset.theme === 'dark' ? 'dark' : 'light';
}

export function hostContext(host: Pick<AppHost, 'container'>) {
  const { width, height, mode } = host.container();
  return {
    theme: theme(),
    displayMode: mode,
    availableDisplayModes: DISPLAY_MODES,
    platform: 'desktop' as const,
    locale: navigator.language,
    containerDimensions: mode === 'fullscreen' ? { width, height } : { width, maxHeight: MAX_HEIGHT },
  };
}

const textOf = (content: ReadonlyArray<{ type: string; text?: unknown }>) =>
  content
    .filter((block) => block.type === 'text' && typeof block.text === 'string')
    .map((block) => block.text as string)
    .join('\n\n');

const reason = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Connects the app in `target` (the sandbox frame's window); the caller then loads the sandbox page. */
export async function connectApp(target: Window, host: AppHost): Promise<AppBridge> {
  const { AppBridge: Bridge, PostMessageTransport } = await import('@modelcontextprotocol/ext-apps/app-bridge');
  const { api, app } = host;
  const bridge = new Bridge(
    null,
    { name: 'Stepwise', version: '1' },
    {
      openLinks: {},
      serverTools: {},
      logging: {},
      message: { text: {} },
      updateModelContext: { text: {}, structuredContent: {} },
    },
    { hostContext: hostContext(host) },
  );
  bridge.addEventListener('sandboxready', () => {
    void bridge.sendSandboxResourceReady({ html: host.resource.html, sandbox: 'allow-scripts' });
  });
  bridge.addEventListener('initialized', () => {
    host.onInitialized();
    void bridge.sendToolInput({ arguments: host.arguments });
    // Main checked the blocks against MCP's schema when the server answered.
    void bridge.sendToolResult(host.result as Parameters<AppBridge['sendToolResult']>[0]);
  });
  bridge.addEventListener('sizechange', ({ height }) => {
    if (typeof height === 'number') host.onSize(height);
  });
  bridge.oncalltool = async (params) =>
    (await call(api, 'mcpApps:callTool', {
      conversationId: host.conversationId,
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
  bridge.onrequestdisplaymode = async ({ mode }) => ({
    mode: DISPLAY_MODES.includes(mode as DisplayMode) ? host.onDisplayMode(mode as DisplayMode) : host.container().mode,
  });
  bridge.onmessage = async ({ content }) => {
    const text = textOf(content);
    try {
      await call(api, 'mcpApps:message', { conversationId: host.conversationId, text });
      return {};
    } catch (error) {
      host.onNotice(`The app's message was not sent: ${reason(error)}`);
      return { isError: true };
    }
  };
  bridge.onupdatemodelcontext = async ({ content, structuredContent }) => {
    await call(api, 'mcpApps:updateModelContext', {
      conversationId: host.conversationId,
      toolCallId: host.toolCallId,
      server: app.server,
      tool: app.tool,
      ...(content ? { content: content as McpAppToolResult['content'] } : {}),
      ...(structuredContent ? { structuredContent } : {}),
    });
    return {};
  };
  await bridge.connect(new PostMessageTransport(target, target));
  return bridge;
}
