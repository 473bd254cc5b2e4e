import { useEffect, useState } from 'react';
import type { SettingsView } from '../../shared/settings';
import { call, useApi, useEvent } from '../api/apiContext';

export function useSettings(): SettingsView | null {
  const api = useApi();
  const [settings, setSettings] = useState<SettingsView | null>(null);
  useEffect(() => {
    void call(api, 'settings:get', {}).then(setSettings, () => {});
  }, [api]);
  useEvent('settings:changed', setSettings, []);
  return settings;
}

/** Applies the theme: the OS preference unless Settings overrides it. */
export function useTheme(theme: SettingsView['theme'] | undefined): void {
  useEffect(() => {
    const media = window.matchMedia('(prefers-color-scheme: dark)');
    const apply = () => {
      const resolved = !theme || theme === 'system' ? (media.matches ? 'dark' : 'light') : theme;
      document.documentElement.dataset.theme = resolved;
    };
    apply();
    media.addEventListener('change', apply);
    return () => media.removeEventListener('change', apply);
  }, [theme]);
}
