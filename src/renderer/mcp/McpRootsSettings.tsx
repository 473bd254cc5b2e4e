// Settings → Tools (MCP) → "Folders the tools may use": absolute paths sent to every MCP
// server as its roots (`roots/list`; servers are told when the list changes). None by
// default. Typed, not picked: the browser host has no folder dialog. The same editor serves
// a sidebar folder's own list (McpFolderRootsDialog).
import { useState } from 'react';
import { call, useApi } from '../api/apiContext';
import { useGuard } from '../common/toasts';

export function McpRootsSettings({ roots }: { roots: string[] }) {
  const api = useApi();
  const guard = useGuard();
  const save = async (next: string[]) =>
    (await guard(() => call(api, 'settings:update', { patch: { mcpRoots: next } }))) !== undefined;

  return (
    <section className="mcp-roots" aria-labelledby="mcp-roots-title">
      <h3 id="mcp-roots-title">Folders the tools may use</h3>
      <p className="field-note">
        Sent to every MCP server as its roots: servers that work on files keep to these folders. None by default.
      </p>
      <RootPathsEditor roots={roots} save={save} />
    </section>
  );
}

/** A list of absolute paths with Remove on each and a field to add one; `save` resolves true once stored. */
export function RootPathsEditor({ roots, save }: { roots: string[]; save: (next: string[]) => Promise<boolean> }) {
  const [folder, setFolder] = useState('');
  return (
    <>
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
    </>
  );
}
