// One server in Settings: its exact command line or URL (always visible before it is
// enabled), its state, its switches and tools.
import type { McpLog, McpServerView, McpState } from '../../shared/mcp';
import { McpLogView } from './McpLogView';
import { McpSignIn } from './McpSignIn';

function stateText(server: McpServerView): string {
  if (!server.enabled) return 'disabled';
  if (server.state === 'ready') return `ready with ${server.tools.length} tool${server.tools.length === 1 ? '' : 's'}`;
  if (server.state === 'stopped') return 'starts when a conversation needs it';
  if (server.signIn === 'needed' || server.signIn === 'failed') return 'needs sign-in';
  if (server.signIn === 'waiting') return 'signing in';
  return server.state;
}

export function McpServerCard(props: {
  server: McpServerView;
  run: (action: () => Promise<McpState | undefined>) => void;
  calls: {
    setEnabled: (enabled: boolean) => Promise<McpState>;
    setTrusted: (trusted: boolean) => Promise<McpState>;
    setReadOnly: (readOnly: boolean) => Promise<McpState>;
    setToolEnabled: (tool: string, enabled: boolean) => Promise<McpState>;
    restart: () => Promise<McpState>;
    signIn: () => Promise<{ state: McpState; authorizationUrl: string | null }>;
    signOut: () => Promise<McpState>;
    log: () => Promise<McpLog | undefined>;
  };
  onEdit: () => void;
  onRemove: () => void;
}) {
  const { server, run, calls } = props;
  return (
    <article
      className={`mcp-server mcp-${server.enabled ? server.state : 'disabled'}`}
      aria-label={`MCP server ${server.name}`}
    >
      <header className="mcp-server-header">
        <h3>{server.name}</h3>
        <span className="mcp-state" role="status">
          {stateText(server)}
        </span>
      </header>
      <div className="mcp-launch">
        <span className="mcp-launch-label">{server.transport === 'stdio' ? 'Runs' : 'Connects to'}</span>
        <code>{server.launch}</code>
      </div>
      {Object.keys(server.headers).length > 0 && (
        <ul className="mcp-headers" aria-label="Headers">
          {Object.entries(server.headers).map(([k, v]) => (
            <li key={k}>
              <code>
                {k}: {v}
              </code>
            </li>
          ))}
        </ul>
      )}
      {server.enabled && server.error && (
        <div className="mcp-error" role="alert">
          <p>{server.error}</p>
          {server.stderr.length > 0 && (
            <pre aria-label="Last lines of its error output">{server.stderr.join('\n')}</pre>
          )}
        </div>
      )}
      <McpSignIn server={server} run={run} signIn={calls.signIn} signOut={calls.signOut} />
      <div className="mcp-switches">
        <label className="checkbox-field">
          <input
            type="checkbox"
            checked={server.enabled}
            onChange={(e) => run(() => calls.setEnabled(e.target.checked))}
          />
          <span>Enable {server.name}</span>
        </label>
        <label className="checkbox-field">
          <input
            type="checkbox"
            checked={server.trusted}
            onChange={(e) => run(() => calls.setTrusted(e.target.checked))}
          />
          <span>Run tools without asking</span>
        </label>
        <label className="checkbox-field" title="Its tools may be used while a plan waits for your approval">
          <input
            type="checkbox"
            checked={server.readOnly}
            onChange={(e) => run(() => calls.setReadOnly(e.target.checked))}
          />
          <span>Read-only (usable while planning)</span>
        </label>
      </div>
      {server.tools.length > 0 && (
        <details className="mcp-tools">
          <summary>Tools of {server.name}</summary>
          <ul>
            {server.tools.map((tool) => (
              <li key={tool.name}>
                <label className="checkbox-field" title={tool.description}>
                  <input
                    type="checkbox"
                    checked={tool.enabled}
                    onChange={(e) => run(() => calls.setToolEnabled(tool.name, e.target.checked))}
                  />
                  <span>
                    <code>{tool.modelName}</code>
                    {tool.enabled && !tool.offered && server.enabled && (
                      <span className="mcp-badge">not offered (see notice)</span>
                    )}
                    {tool.readOnly && <span className="mcp-badge">read-only</span>}
                    {tool.alwaysAllow && <span className="mcp-badge">always allowed</span>}
                  </span>
                </label>
              </li>
            ))}
          </ul>
        </details>
      )}
      <McpLogView name={server.name} load={calls.log} />
      <div className="mcp-actions">
        <button type="button" onClick={props.onEdit} aria-label={`Edit ${server.name}`}>
          Edit
        </button>
        <button
          type="button"
          disabled={!server.enabled}
          onClick={() => run(calls.restart)}
          aria-label={`Restart ${server.name}`}
        >
          Restart
        </button>
        <button type="button" className="danger" onClick={props.onRemove} aria-label={`Remove ${server.name}`}>
          Remove
        </button>
      </div>
    </article>
  );
}
