// Settings → Tools (MCP): the UI for mcp.json. Servers added here or by paste start
// disabled; the card shows exactly what will run before the user enables it.
import { useState } from 'react';
import type { McpServerInput, McpServerView, McpState } from '../../shared/mcp';
import type { SettingsView } from '../../shared/settings';
import { call, useApi } from '../api/apiContext';
import { ConfirmDialog } from '../common/ConfirmDialog';
import { useGuard, useToast } from '../common/toasts';
import { McpServerCard } from './McpServerCard';
import { McpServerForm } from './McpServerForm';
import { McpRootsSettings } from './McpRootsSettings';
import { useMcp } from './useMcp';
import './mcp.css';

export function McpSettings({ settings }: { settings: SettingsView }) {
  const api = useApi();
  const guard = useGuard();
  const toast = useToast();
  const [state, setState] = useMcp();
  const [editing, setEditing] = useState<McpServerView | 'new' | null>(null);
  const [pasting, setPasting] = useState(false);
  const [pasted, setPasted] = useState('');
  const [removing, setRemoving] = useState<string | null>(null);

  const run = (action: () => Promise<McpState | undefined>) =>
    void guard(action).then((next) => {
      if (next) setState(next);
    });

  const save = async (server: McpServerInput) => {
    const previousName = editing && editing !== 'new' ? editing.name : null;
    const next = await guard(() => call(api, 'mcp:saveServer', { previousName, server }));
    if (next) setState(next);
    return next !== undefined;
  };

  const importPasted = async () => {
    const result = await guard(() => call(api, 'mcp:import', { text: pasted }));
    if (!result) return;
    setState(result.state);
    setPasted('');
    setPasting(false);
    toast(`Added ${result.added.join(', ')} (disabled until you enable ${result.added.length === 1 ? 'it' : 'them'})`);
  };

  return (
    <fieldset className="settings-group mcp-settings">
      <legend>Tools (MCP)</legend>
      <p className="field-note">
        MCP servers give the assistant and its workers tools. A server is a program you choose to run: check the command
        before you enable it. Every call waits for your approval unless you allow it.
      </p>
      <label className="field checkbox-field">
        <input
          type="checkbox"
          checked={settings.autoAllowReadOnly}
          onChange={(e) =>
            void guard(() => call(api, 'settings:update', { patch: { autoAllowReadOnly: e.target.checked } }))
          }
        />
        <span>Run tools marked read-only without asking</span>
      </label>
      <McpRootsSettings roots={settings.mcpRoots} />
      {state?.configError && (
        <p className="mcp-config-error" role="alert">
          {state.configError}. The last good configuration stays in force.
        </p>
      )}
      {state && state.servers.length === 0 && <p className="field-note">No MCP servers yet.</p>}
      {state && state.servers.length > 0 && (
        <div className="mcp-servers">
          {state.servers.map((server) =>
            editing !== 'new' && editing?.name === server.name ? (
              <McpServerForm key={server.name} initial={server} onSave={save} onCancel={() => setEditing(null)} />
            ) : (
              <McpServerCard
                key={server.name}
                server={server}
                run={run}
                calls={{
                  setEnabled: (enabled) => call(api, 'mcp:setEnabled', { name: server.name, enabled }),
                  setTrusted: (trusted) => call(api, 'mcp:setTrusted', { name: server.name, trusted }),
                  setReadOnly: (readOnly) => call(api, 'mcp:setReadOnly', { name: server.name, readOnly }),
                  setToolEnabled: (tool, enabled) =>
                    call(api, 'mcp:setToolEnabled', { name: server.name, tool, enabled }),
                  restart: () => call(api, 'mcp:restart', { name: server.name }),
                  signIn: () => call(api, 'mcp:signIn', { name: server.name }),
                  signOut: () => call(api, 'mcp:signOut', { name: server.name }),
                  log: () => guard(() => call(api, 'mcp:log', { name: server.name })),
                }}
                onEdit={() => setEditing(server)}
                onRemove={() => setRemoving(server.name)}
              />
            ),
          )}
        </div>
      )}
      {editing === 'new' && <McpServerForm initial={null} onSave={save} onCancel={() => setEditing(null)} />}
      {pasting && (
        <div className="mcp-paste">
          <label className="field">
            <span>Paste an mcpServers JSON block</span>
            <textarea
              rows={6}
              value={pasted}
              placeholder={'{ "mcpServers": { "name": { "command": "npx", "args": ["-y", "package"] } } }'}
              onChange={(e) => setPasted(e.target.value)}
            />
          </label>
          <div className="mcp-form-actions">
            <button type="button" className="primary" disabled={!pasted.trim()} onClick={() => void importPasted()}>
              Import servers
            </button>
            <button type="button" onClick={() => setPasting(false)}>
              Cancel
            </button>
          </div>
        </div>
      )}
      {editing === null && !pasting && (
        <div className="mcp-form-actions">
          <button type="button" onClick={() => setEditing('new')}>
            Add server
          </button>
          <button type="button" onClick={() => setPasting(true)}>
            Paste JSON
          </button>
        </div>
      )}
      {removing && (
        <ConfirmDialog
          title={`Remove ${removing}?`}
          confirmLabel="Remove server"
          danger
          onCancel={() => setRemoving(null)}
          onConfirm={() => {
            const name = removing;
            setRemoving(null);
            run(() => call(api, 'mcp:removeServer', { name }));
          }}
        >
          <p>Its entry is deleted from mcp.json and the server is stopped.</p>
        </ConfirmDialog>
      )}
    </fieldset>
  );
}
