import { useEffect, useRef } from 'react';

/** Opens a <dialog> as a modal while the component is mounted (focus trapped, Esc cancels). */
export function useModal() {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => dialog?.close();
  }, []);
  return ref;
}
