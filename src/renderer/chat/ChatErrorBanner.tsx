import type { ChatError } from '../../shared/domain';
import './ChatErrorBanner.css';

export function ChatErrorBanner(props: { error: ChatError; onRetry?: () => void; onOpenSettings: () => void }) {
  return (
    <div className="chat-error" role="alert">
      <span className="chat-error-text">{props.error.message}</span>
      <span className="chat-error-actions">
        {props.error.settings && (
          <button type="button" onClick={props.onOpenSettings}>
            Open Settings
          </button>
        )}
        {props.error.retryable && props.onRetry && (
          <button type="button" className="primary" onClick={props.onRetry}>
            Retry
          </button>
        )}
      </span>
    </div>
  );
}
