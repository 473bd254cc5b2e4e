// The actions row of a dialog that only shows something: one Close button (Esc does the same).
import type { RefObject } from 'react';

export function DialogCloseActions({ dialog }: { dialog: RefObject<HTMLDialogElement | null> }) {
  return (
    <div className="dialog-actions">
      <button type="button" onClick={() => dialog.current?.close()}>
        Close
      </button>
    </div>
  );
}
