// Settings → Tools (MCP) → "Folders the tools may use": absolute paths sent to every MCP
// server as its roots (`roots/list`; servers are told when the list changes). None by
// default. Typed, not picked: the browser host has no folder dialog.
import { useState } from 'react';
import { call, useApi } from '../api/apiContext';
import { useGuard } from '../common/toasts';

export function McpRootsSettings({ roots }: { roots: string[] }) {
  const api = useApi();
  const guard = useGuard();
  const [folder, setFolder] = useState('');
  const save = (next: string[]) => guard(() => call(api, 'settings:update', { patch: { mcpRoots: next } }));

  return (
    <section className="mcp-roots" aria-labelledby="mcp-roots-title">
      <h3 id="mcp-roots-title">Folders the tools may use</h3>
      <p className="field-note">
        Sent to every MCP server as its roots: servers that work on files keep to these folders. None by default.
      </p>
      {roots.length > 0 && (
        <ul aria-label="Folders the tools may use">
          {roots.map((root) => (
            <li key={root}>
              <code>{root}</code>{' '}
              <button
                type="button"
                className="ghost"
                aria-label={`Remove folder ${root}`}
                onClick={() => void save(roots.filter((r) => r !== root))}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      <form
        className="mcp-roots-add"
        onSubmit={(e) => {
          e.preventDefault();
          const value = folder.trim();
          if (!value || roots.includes(value)) return;
          void save([...roots, value]).then((saved) => {
            if (saved) setFolder('');
          });
        }}
      >
        <input
          aria-label="Folder path"
          placeholder="/home/me/project"
          value={folder}
          onChange={(e) => setFolder(e.target.value)}
        />
        <button type="submit" disabled={!folder.trim()}>
          Add folder
        </button>
      </form>
    </section>
  );
}
