// Settings → "Share task lists with other agents": the switch, the port, the endpoint's
// state, "Copy configuration" (the ready mcpServers JSON, token included) and a new token.
import { useEffect, useState } from 'react';
import type { SettingsView } from '../../shared/settings';
import type { TaskShareStatus } from '../../shared/taskShareContract';
import { call, useApi, useEvent } from '../api/apiContext';
import { useGuard, useToast } from '../common/toasts';
import './taskShare.css';

export function TaskShareSettings({ settings }: { settings: SettingsView }) {
  const api = useApi();
  const guard = useGuard();
  const toast = useToast();
  const [status, setStatus] = useState<TaskShareStatus | null>(null);

  // The endpoint follows the settings; read its state again whenever they change.
  useEffect(() => {
    void call(api, 'taskShare:status', {}).then(setStatus, () => {});
  }, [api, settings.shareTaskLists, settings.taskSharePort]);
  useEvent('taskShare:status', setStatus, []);

  const update = (patch: { shareTaskLists?: boolean; taskSharePort?: number }) =>
    void guard(() => call(api, 'settings:update', { patch }));

  const copy = () =>
    void guard(async () => {
      const { json } = await call(api, 'taskShare:configuration', {});
      await navigator.clipboard.writeText(json);
      toast("Configuration copied. Paste it into your agent's MCP settings.");
    });

  const regenerate = () =>
    void guard(async () => {
      const next = await call(api, 'taskShare:regenerateToken', {});
      setStatus(next);
      // Only a running endpoint had agents to disconnect.
      toast(
        next.listening
          ? 'New token made. Connected agents were disconnected: give them the new configuration.'
          : 'New token made. Give your agents the new configuration.',
      );
    });

  return (
    <fieldset className="settings-group task-share-settings">
      <legend>Sharing task lists</legend>
      <p className="field-note">
        Other agents on this computer (Claude Code, Cursor, VS Code, Codex…) can read and update your task lists over
        MCP. Their changes follow the same rules as yours and show who made them.
      </p>
      <label className="field checkbox-field">
        <input
          type="checkbox"
          checked={settings.shareTaskLists}
          onChange={(e) => update({ shareTaskLists: e.target.checked })}
        />
        <span>Share task lists with other agents</span>
      </label>
      {/* Keyed by the saved port: a change made elsewhere resets what is typed. */}
      <PortField
        key={settings.taskSharePort}
        saved={settings.taskSharePort}
        onCommit={(taskSharePort) => update({ taskSharePort })}
      />
      {status && (
        <p className="field-note task-share-state" role="status" aria-label="Sharing status">
          {!status.enabled
            ? `Off. When on, agents connect to ${status.url}.`
            : status.listening
              ? `Serving ${status.url} · ${status.clients} ${status.clients === 1 ? 'agent' : 'agents'} connected`
              : (status.error ?? 'Starting…')}
        </p>
      )}
      {status?.enabled && status.error && (
        <p className="task-share-error" role="alert">
          {status.error}
        </p>
      )}
      <div className="task-share-actions">
        <button type="button" onClick={copy}>
          Copy configuration
        </button>
        <button type="button" className="ghost" onClick={regenerate}>
          Regenerate token
        </button>
      </div>
      <p className="field-note">
        For agents that only speak stdio: <code>npm run -s mcp</code> in the Stepwise folder.
      </p>
    </fieldset>
  );
}

function PortField({ saved, onCommit }: { saved: number; onCommit: (port: number) => void }) {
  const toast = useToast();
  const [port, setPort] = useState(String(saved));
  const commit = () => {
    const n = Number(port);
    if (Number.isInteger(n) && n >= 1024 && n <= 65535) {
      if (n !== saved) onCommit(n);
    } else {
      toast('The port must be a whole number from 1024 to 65535.');
      setPort(String(saved));
    }
  };
  return (
    <label className="field">
      <span>Port</span>
      <input
        type="number"
        min={1024}
        max={65535}
        value={port}
        onChange={(e) => setPort(e.target.value)}
        onBlur={commit}
        onKeyDown={(e) => {
          if (e.key === 'Enter') commit();
        }}
      />
    </label>
  );
}
