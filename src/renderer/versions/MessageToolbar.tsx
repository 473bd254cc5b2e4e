// Under every message: "‹ 2/3 ›" when it has other versions, and Copy, Edit (the user's
// messages) or Regenerate (replies). The actions show on hover and on keyboard focus;
// the version switch always shows, so the user can see that other versions exist.
import type { Message } from '../../shared/domain';
import './versions.css';

export interface VersionActions {
  running: boolean;
  /** Absent in read-only transcripts (workers). */
  onEdit?: () => void;
  onRegenerate?: () => void;
  onShowVersion?: (index: number) => void;
}

/** The user's own messages (and Autopilot's, written for them) can be edited. */
export const canEdit = (message: Message) =>
  message.role === 'user' && (message.origin === 'user' || message.origin === 'auto');

export function MessageToolbar({
  message,
  label,
  actions,
  copyText = message.content,
  regenerable = message.role === 'assistant' && message.status !== 'streaming',
}: {
  message: Message;
  label: string;
  actions: VersionActions;
  /** What Copy puts on the clipboard: a reply of several responses copies its text parts only. */
  copyText?: string;
  regenerable?: boolean;
}) {
  const { version } = message;
  const edit = actions.onEdit && canEdit(message) && !actions.running;
  const regenerate = actions.onRegenerate && regenerable && !actions.running;
  const copyLabel =
    message.role === 'user' && message.origin === 'user' ? 'Copy your message' : `Copy ${label.toLowerCase()} message`;
  if (!version && !copyText && !regenerate) return null;
  return (
    <div className="message-toolbar">
      {version && actions.onShowVersion && (
        <VersionSwitch
          index={version.index}
          count={version.count}
          disabled={actions.running}
          onShow={actions.onShowVersion}
        />
      )}
      <div className="message-actions">
        {copyText && (
          <button
            type="button"
            className="ghost small"
            aria-label={copyLabel}
            onClick={() => void navigator.clipboard.writeText(copyText)}
          >
            Copy
          </button>
        )}
        {edit && (
          <button type="button" className="ghost small" aria-label="Edit message" onClick={actions.onEdit}>
            Edit
          </button>
        )}
        {regenerate && (
          <button type="button" className="ghost small" aria-label="Regenerate reply" onClick={actions.onRegenerate}>
            Regenerate
          </button>
        )}
      </div>
    </div>
  );
}

function VersionSwitch(props: { index: number; count: number; disabled: boolean; onShow: (index: number) => void }) {
  const { index, count, disabled, onShow } = props;
  return (
    <div className="version-switch" role="group" aria-label={`Version ${index} of ${count}`}>
      <button
        type="button"
        className="ghost small"
        aria-label="Previous version"
        disabled={disabled || index <= 1}
        onClick={() => onShow(index - 1)}
      >
        ‹
      </button>
      <span className="version-count">
        {index}/{count}
      </span>
      <button
        type="button"
        className="ghost small"
        aria-label="Next version"
        disabled={disabled || index >= count}
        onClick={() => onShow(index + 1)}
      >
        ›
      </button>
    </div>
  );
}
