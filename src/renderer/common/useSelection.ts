// The selected conversation lives in the address hash (#/c/<id>), so a reload or a
// shared browser-host link opens the same conversation; a Settings section is
// #/settings/<section>. A new conversation that is not stored yet is #/new/<id>: the id
// its draft is kept under, and that its first send stores.
import { useCallback, useEffect, useState } from 'react';

export type View =
  | { kind: 'conversation'; id: string }
  | { kind: 'new'; id: string }
  /** Settings over the conversation; `section` is the id in #/settings/<id> (none: the first). */
  | { kind: 'settings'; section?: string }
  | { kind: 'board' }
  /** Routines and Activity (docs/routines.md). */
  | { kind: 'routines' }
  | { kind: 'activity' }
  | { kind: 'home' };

function parse(hash: string): View {
  const conversation = /^#\/(c|new)\/([0-9a-f-]{36})$/i.exec(hash);
  if (conversation) return { kind: conversation[1] === 'c' ? 'conversation' : 'new', id: conversation[2] };
  if (hash === '#/tasks') return { kind: 'board' };
  if (hash === '#/routines') return { kind: 'routines' };
  if (hash === '#/activity') return { kind: 'activity' };
  const settings = /^#\/settings(?:\/([a-z0-9-]+))?$/.exec(hash);
  if (settings) return settings[1] ? { kind: 'settings', section: settings[1] } : { kind: 'settings' };
  return { kind: 'home' };
}

function format(view: View): string {
  if (view.kind === 'conversation') return `#/c/${view.id}`;
  if (view.kind === 'new') return `#/new/${view.id}`;
  if (view.kind === 'settings') return view.section ? `#/settings/${view.section}` : '#/settings';
  if (view.kind === 'board') return '#/tasks';
  if (view.kind === 'routines') return '#/routines';
  if (view.kind === 'activity') return '#/activity';
  return '#/';
}

export function useView(): [View, (view: View) => void, (id: string) => void] {
  const [view, setView] = useState<View>(() => parse(window.location.hash));
  useEffect(() => {
    const onHash = () => setView(parse(window.location.hash));
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);
  const navigate = useCallback((next: View) => {
    // replaceState keeps the token-bearing query string and avoids a history entry per click.
    window.history.replaceState(null, '', `${window.location.pathname}${window.location.search}${format(next)}`);
    setView(next);
  }, []);
  /** A new conversation was stored: its open view becomes the stored one (not if the user moved on). */
  const promote = useCallback(
    (id: string) => {
      const current = parse(window.location.hash);
      if (current.kind === 'new' && current.id === id) navigate({ kind: 'conversation', id });
    },
    [navigate],
  );
  return [view, navigate, promote];
}
