// Settings opens over the view it was opened from: that conversation stays mounted under
// it (its scroll position, draft and focus target intact), and closing returns to it and
// gives the focus back to where it was.
import { useCallback, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { call, useApi } from '../api/apiContext';
import type { View } from '../common/useSelection';
import { SETTINGS_VIEW, type Requests } from '../navigation/requests';

export interface SettingsRoute {
  /** The view to draw under Settings (the current view while Settings is closed). */
  base: Exclude<View, { kind: 'settings' }>;
  open: boolean;
  section: string | undefined;
  /** The profile of the conversation Settings was opened from. */
  profileId: string | null;
  show: (section?: string) => void;
  showSection: (section: string) => void;
  close: () => void;
}

export function useSettingsRoute(view: View, navigate: (view: View) => void, requests: Requests): SettingsRoute {
  const api = useApi();
  const [behind, setBehind] = useState<SettingsRoute['base']>(view.kind === 'settings' ? { kind: 'home' } : view);
  if (view.kind !== 'settings' && view !== behind) setBehind(view);
  const base = view.kind === 'settings' ? behind : view;
  const [profileId, setProfileId] = useState<string | null>(null);
  const returnFocus = useRef<Element | null>(null);

  const show = useCallback(
    (section?: string) => {
      if (view.kind !== 'settings') {
        returnFocus.current = document.activeElement;
        setProfileId(null);
        if (view.kind === 'conversation') {
          void call(api, 'conversations:get', { id: view.id }).then(
            (c) => setProfileId(c.model?.profileId ?? null),
            () => {},
          );
        }
      }
      navigate({ kind: 'settings', section: section ?? (view.kind === 'settings' ? view.section : undefined) });
      // The focus moves into Settings even when it is open already (Ctrl/⌘+,).
      requests.request('focusSettings', SETTINGS_VIEW, null);
    },
    [api, navigate, view, requests],
  );

  const showSection = useCallback((section: string) => navigate({ kind: 'settings', section }), [navigate]);

  const close = useCallback(() => {
    // Drawn at once, so the element that had the focus is visible again and can take it.
    flushSync(() => navigate(behind));
    const target = returnFocus.current;
    returnFocus.current = null;
    if (target instanceof HTMLElement && target.isConnected && target !== document.body)
      target.focus({ preventScroll: true });
  }, [behind, navigate]);

  return {
    base,
    open: view.kind === 'settings',
    section: view.kind === 'settings' ? view.section : undefined,
    profileId,
    show,
    showSection,
    close,
  };
}
