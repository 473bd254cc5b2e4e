// The Cancel and confirm buttons at the foot of every dialog.
export function DialogActions(props: {
  label: string;
  onCancel: () => void;
  /** Absent: the confirm button submits the dialog's form. */
  onConfirm?: () => void;
  disabled?: boolean;
  danger?: boolean;
  /** Focus Cancel first (a confirmation that should not happen by a stray Enter). */
  cancelFirst?: boolean;
}) {
  return (
    <div className="dialog-actions">
      <button type="button" onClick={props.onCancel} autoFocus={props.cancelFirst}>
        Cancel
      </button>
      <button
        type={props.onConfirm ? 'button' : 'submit'}
        className={props.danger ? 'danger' : 'primary'}
        disabled={props.disabled}
        onClick={props.onConfirm}
      >
        {props.label}
      </button>
    </div>
  );
}
