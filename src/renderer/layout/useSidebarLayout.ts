// Whether the sidebar shows. Above the breakpoint the user's own choice holds and is
// remembered; below it the sidebar folds away by itself, and showing it there lasts only
// until the window crosses the breakpoint again (the remembered wide choice is untouched),
// and the sidebar lies over the view instead of narrowing it further.
import { useCallback, useEffect, useState } from 'react';

const STORAGE_KEY = 'stepwise.sidebar.hidden';
export const NARROW_QUERY = '(max-width: 899.98px)';

const isNarrow = () => window.matchMedia(NARROW_QUERY).matches;

export interface SidebarLayout {
  hidden: boolean;
  /** Shown over the view in a narrow window (it folds away again once something is chosen). */
  overlay: boolean;
  toggle: () => void;
  show: () => void;
  /** Folds the sidebar shown over a narrow window; a no-op when wide. */
  foldIfOverlay: () => void;
}

export function useSidebarLayout(): SidebarLayout {
  const [narrow, setNarrow] = useState(isNarrow);
  const [wideHidden, setWideHidden] = useState(() => localStorage.getItem(STORAGE_KEY) === '1');
  const [narrowShown, setNarrowShown] = useState(false);

  useEffect(() => {
    const media = window.matchMedia(NARROW_QUERY);
    const onChange = () => {
      setNarrow(media.matches);
      setNarrowShown(false);
    };
    media.addEventListener('change', onChange);
    return () => media.removeEventListener('change', onChange);
  }, []);

  const hidden = narrow ? !narrowShown : wideHidden;

  const setHidden = useCallback(
    (next: boolean) => {
      if (narrow) {
        setNarrowShown(!next);
        return;
      }
      setWideHidden(next);
      localStorage.setItem(STORAGE_KEY, next ? '1' : '0');
    },
    [narrow],
  );

  const toggle = useCallback(() => setHidden(!hidden), [hidden, setHidden]);
  const show = useCallback(() => setHidden(false), [setHidden]);
  const foldIfOverlay = useCallback(() => setNarrowShown(false), []);
  return { hidden, overlay: narrow && !hidden, toggle, show, foldIfOverlay };
}
