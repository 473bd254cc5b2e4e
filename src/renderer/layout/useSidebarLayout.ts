// Whether the sidebar shows. Above the breakpoint the user's own choice holds and is
// remembered; below it the sidebar folds away by itself, and showing it there lasts only
// until the window crosses the breakpoint again (the remembered wide choice is untouched).
import { useCallback, useEffect, useState } from 'react';

const STORAGE_KEY = 'stepwise.sidebar.hidden';
export const NARROW_QUERY = '(max-width: 899.98px)';

const isNarrow = () => window.matchMedia(NARROW_QUERY).matches;

export function useSidebarLayout(): { hidden: boolean; toggle: () => void; show: () => void } {
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
  return { hidden, toggle, show };
}
