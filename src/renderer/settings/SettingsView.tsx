import type { SettingsView as Settings } from '../../shared/settings';
import { call, useApi } from '../api/apiContext';
import { useGuard } from '../common/toasts';

export function SettingsView({ settings, onClose }: { settings: Settings | null; onClose: () => void }) {
  const api = useApi();
  const guard = useGuard();
  if (!settings) return <div className="loading" aria-busy="true" />;
  const update = (patch: Partial<Settings>) => void guard(() => call(api, 'settings:update', { patch }));

  return (
    <section className="settings" aria-label="Settings">
      <header className="settings-header">
        <h1>Settings</h1>
        <button type="button" className="ghost" onClick={onClose}>
          Close settings
        </button>
      </header>
      <fieldset className="settings-group">
        <legend>Appearance</legend>
        <div role="radiogroup" aria-label="Theme" className="segmented">
          {(['system', 'light', 'dark'] as const).map((theme) => (
            <label key={theme} className={settings.theme === theme ? 'segment checked' : 'segment'}>
              <input
                type="radio"
                name="theme"
                value={theme}
                checked={settings.theme === theme}
                onChange={() => update({ theme })}
              />
              {theme === 'system' ? 'Match system' : theme === 'light' ? 'Light' : 'Dark'}
            </label>
          ))}
        </div>
      </fieldset>
    </section>
  );
}
