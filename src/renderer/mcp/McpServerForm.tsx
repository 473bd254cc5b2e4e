// Add or edit one server. Secrets arrive masked; a masked value saved unchanged keeps the
// stored one. Lines, not JSON, for args, env and headers.
import { useState } from 'react';
import type { McpServerInput, McpServerView, McpTransport } from '../../shared/mcp';

function toLines(values: Record<string, string>, separator: string): string {
  return Object.entries(values)
    .map(([k, v]) => `${k}${separator}${v}`)
    .join('\n');
}

function fromLines(text: string, separator: RegExp): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const match = separator.exec(line);
    if (!match || match.index === 0) continue;
    out[line.slice(0, match.index).trim()] = line.slice(match.index + match[0].length).trim();
  }
  return out;
}

export function McpServerForm(props: {
  initial: McpServerView | null;
  onSave: (server: McpServerInput) => Promise<boolean>;
  onCancel: () => void;
}) {
  const start = props.initial;
  const [name, setName] = useState(start?.name ?? '');
  const [transport, setTransport] = useState<McpTransport>(start?.transport ?? 'stdio');
  const [command, setCommand] = useState(start?.command ?? '');
  const [args, setArgs] = useState((start?.args ?? []).join('\n'));
  const [env, setEnv] = useState(toLines(start?.env ?? {}, '='));
  const [cwd, setCwd] = useState(start?.cwd ?? '');
  const [url, setUrl] = useState(start?.url ?? '');
  const [headers, setHeaders] = useState(toLines(start?.headers ?? {}, ': '));
  const [timeoutSec, setTimeoutSec] = useState(String(start?.timeoutSec ?? 60));

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const saved = await props.onSave({
      name: name.trim(),
      transport,
      command,
      args: args.split('\n').filter((a) => a.trim() !== ''),
      env: fromLines(env, /=/),
      cwd,
      url,
      headers: fromLines(headers, /:\s*/),
      timeoutSec: Math.max(1, Math.round(Number(timeoutSec) || 60)),
    });
    if (saved) props.onCancel();
  };

  return (
    <form
      className="mcp-form"
      aria-label={start ? `Edit ${start.name}` : 'Add MCP server'}
      onSubmit={(e) => void submit(e)}
    >
      <label className="field">
        <span>Name</span>
        <input value={name} required maxLength={64} onChange={(e) => setName(e.target.value)} />
      </label>
      <label className="field">
        <span>Transport</span>
        <select value={transport} onChange={(e) => setTransport(e.target.value as McpTransport)}>
          <option value="stdio">Local command (stdio)</option>
          <option value="http">Remote (Streamable HTTP)</option>
          <option value="sse">Remote (HTTP + SSE, older servers)</option>
        </select>
      </label>
      {transport === 'stdio' ? (
        <>
          <label className="field">
            <span>Command</span>
            <input value={command} required onChange={(e) => setCommand(e.target.value)} placeholder="npx" />
          </label>
          <label className="field">
            <span>Arguments (one per line)</span>
            <textarea rows={3} value={args} onChange={(e) => setArgs(e.target.value)} />
          </label>
          <label className="field">
            <span>Environment (NAME=value per line)</span>
            <textarea rows={2} value={env} onChange={(e) => setEnv(e.target.value)} />
          </label>
          <label className="field">
            <span>Working directory</span>
            <input value={cwd} onChange={(e) => setCwd(e.target.value)} />
          </label>
        </>
      ) : (
        <>
          <label className="field">
            <span>URL</span>
            <input
              type="url"
              value={url}
              required
              onChange={(e) => setUrl(e.target.value)}
              placeholder="https://example.com/mcp"
            />
          </label>
          <label className="field">
            <span>Headers (Name: value per line)</span>
            <textarea rows={2} value={headers} onChange={(e) => setHeaders(e.target.value)} />
          </label>
        </>
      )}
      <label className="field">
        <span>Timeout per call (seconds)</span>
        <input type="number" min={1} max={3600} value={timeoutSec} onChange={(e) => setTimeoutSec(e.target.value)} />
      </label>
      <div className="mcp-form-actions">
        <button type="submit" className="primary">
          Save server
        </button>
        <button type="button" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
