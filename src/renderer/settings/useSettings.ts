import { useEffect } from 'react';
import type { SettingsView } from '../../shared/settings';
import { followedCall, useQuery } from '../query/useQuery';

/** The settings, live; every view of them shares one request. */
export function useSettings(): SettingsView | null {
  const [settings] = useQuery(
    followedCall({ call: 'settings:get', params: {}, event: 'settings:changed', pick: (next) => next }),
    null,
  );
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
