// A modal confirmation built on <dialog>: focus is trapped and Esc cancels.
import { type ReactNode } from 'react';
import { useModal } from './useModal';
import { DialogActions } from './DialogActions';

export function ConfirmDialog(props: {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  danger?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const ref = useModal();
  return (
    <dialog
      ref={ref}
      className="dialog"
      aria-label={props.title}
      onCancel={(event) => {
        event.preventDefault();
        props.onCancel();
      }}
    >
      <h2>{props.title}</h2>
      <div className="dialog-body">{props.children}</div>
      <DialogActions
        label={props.confirmLabel}
        onCancel={props.onCancel}
        onConfirm={props.onConfirm}
        danger={props.danger}
        cancelFirst
      />
    </dialog>
  );
}
