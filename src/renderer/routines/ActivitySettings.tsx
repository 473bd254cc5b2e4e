// Settings → Notifications (when a run or a background conversation finishes, needs you or
// fails) and Settings → Routines (the desktop app keeps running with its window closed).
import { useState } from 'react';
import type { ActivitySettings as Settings } from '../../shared/routinesContract';
import { call, useApi } from '../api/apiContext';
import { followedCall, useQuery } from '../query/useQuery';
import { useGuard } from '../common/toasts';
import { useHost } from './useHost';

function useActivitySettings(): [Settings | null, (patch: Partial<Settings>) => void] {
  const api = useApi();
  const guard = useGuard();
  const [settings, setSettings] = useQuery(
    followedCall({ call: 'activity:getSettings', params: {}, event: 'activity:settings', pick: (next) => next }),
    null,
  );
  const update = (patch: Partial<Settings>) =>
    void guard(async () => setSettings(await call(api, 'activity:setSettings', { settings: patch })));
  return [settings, update];
}

type Permission = NotificationPermission | 'unsupported';
const permissionNow = (): Permission => ('Notification' in window ? Notification.permission : 'unsupported');

export function NotificationSettings() {
  const [settings, update] = useActivitySettings();
  const host = useHost();
  const [permission, setPermission] = useState<Permission>(permissionNow);
  const check = (key: keyof Settings, label: string) => (
    <label className="checkbox-field">
      <input type="checkbox" checked={settings?.[key] ?? false} onChange={(e) => update({ [key]: e.target.checked })} />
      <span>{label}</span>
    </label>
  );
  return (
    <fieldset className="settings-group">
      <legend>Notifications</legend>
      <p className="field-note">
        Tell me when a routine run or a conversation in the background… (everything is also listed in Activity)
      </p>
      {check('notifyFinished', 'finishes')}
      {check('notifyNeedsYou', 'needs me (an approval, an answer, a plan review)')}
      {check('notifyFailed', 'fails')}
      {host === 'electron' && (
        <p className="field-note">The desktop app shows a system notification while its window is not focused.</p>
      )}
      {host === 'browser' && permission === 'granted' && (
        <p className="field-note">This browser shows the notifications.</p>
      )}
      {host === 'browser' && permission === 'denied' && (
        <p className="field-note">This browser blocks notifications from Stepwise: allow them in its site settings.</p>
      )}
      {host === 'browser' && permission === 'unsupported' && (
        <p className="field-note">This browser cannot show notifications.</p>
      )}
      {host === 'browser' && permission === 'default' && (
        <button
          type="button"
          onClick={() =>
            void Notification.requestPermission().then(setPermission, () => setPermission(permissionNow()))
          }
        >
          Allow browser notifications
        </button>
      )}
    </fieldset>
  );
}

export function RoutineSettings() {
  const [settings, update] = useActivitySettings();
  const host = useHost();
  return (
    <fieldset className="settings-group">
      <legend>Routines</legend>
      <label className="checkbox-field">
        <input
          type="checkbox"
          checked={settings?.keepRunning ?? false}
          disabled={host !== 'electron'}
          onChange={(e) => update({ keepRunning: e.target.checked })}
        />
        <span>Keep running in the background when the window is closed</span>
      </label>
      <p className="field-note">
        {host === 'electron'
          ? 'Routines run while Stepwise runs. With this on, closing the window leaves Stepwise in the tray (its icon reopens the window or quits).'
          : 'Routines run while the browser host runs, whether or not a page is open.'}
      </p>
    </fieldset>
  );
}
