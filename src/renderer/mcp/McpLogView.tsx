// A server's log messages on its card: read when opened (and on Refresh), never pushed line
// by line, so a server that floods its log costs the page nothing until someone looks.
import { useState } from 'react';
import type { McpLog } from '../../shared/mcp';

export function McpLogView(props: { name: string; load: () => Promise<McpLog | undefined> }) {
  const [log, setLog] = useState<McpLog | null>(null);
  const refresh = () => void props.load().then((next) => next && setLog(next));
  return (
    <details
      className="mcp-log"
      onToggle={(e) => {
        if ((e.target as HTMLDetailsElement).open) refresh();
      }}
    >
      <summary>Log</summary>
      {log && (
        <div role="region" aria-label={`Log of ${props.name}`}>
          {log.entries.length === 0 ? (
            <p className="field-note">No log messages yet.</p>
          ) : (
            <ol className="mcp-log-lines">
              {log.entries.map((entry, i) => (
                <li key={`${entry.at}-${i}`}>
                  <time dateTime={new Date(entry.at).toISOString()}>{new Date(entry.at).toLocaleTimeString()}</time>{' '}
                  <span className={`mcp-log-level mcp-log-${entry.level}`}>{entry.level}</span>
                  {entry.logger && <span className="mcp-log-logger"> {entry.logger}</span>} <code>{entry.text}</code>
                </li>
              ))}
            </ol>
          )}
          {log.dropped > 0 && (
            <p className="field-note">
              The last {log.entries.length} messages are kept; {log.dropped} older ones were let go.
            </p>
          )}
          <button type="button" onClick={refresh} aria-label={`Refresh the log of ${props.name}`}>
            Refresh
          </button>
        </div>
      )}
    </details>
  );
}
