import { useState } from 'react';
import { revealBidiControls } from '../../shared/bidi';
import type { Message } from '../../shared/domain';
import { plumbingLine } from '../../shared/messageKinds';
import { Markdown } from './LazyMarkdown';
import { ThinkingBlock } from './ThinkingBlock';
import { ToolCallCard } from './ToolCallCard';
import type { DisplayItem } from './displayItems';
import { UsageLine } from './usage';
import { plumbingView } from './PlumbingMessages';
import { TurnReply } from './TurnReply';
import { MessageToolbar, type VersionActions } from '../versions/MessageToolbar';
import { MessageFiles } from '../attachments/MessageFiles';
import './messages.css';
import './toolCalls.css';
import './markdownBody.css';

const ROLE_LABEL: Record<Message['role'], string> = {
  user: 'You',
  assistant: 'Assistant',
  tool: 'Tool',
  system: 'Stepwise',
};

const STATUS_TAG: Partial<Record<Message['status'], string>> = {
  stopped: 'Stopped',
  interrupted: 'Interrupted',
  error: 'Failed',
};

export interface MessageActions {
  running: boolean;
  /** Who speaks as "Assistant" in this transcript: "Assistant" or "Worker 2". */
  agentName?: string;
  /** Each absent in read-only transcripts (workers). */
  onEdit?: (messageId: number, content: string) => void;
  onRegenerate?: (messageId: number) => void;
  onShowVersion?: (messageId: number, index: number) => void;
}

function toolbarActions(message: Message, actions: MessageActions, startEdit: () => void): VersionActions {
  const { onEdit, onRegenerate, onShowVersion } = actions;
  return {
    running: actions.running,
    onEdit: onEdit && startEdit,
    onRegenerate: onRegenerate && (() => onRegenerate(message.id)),
    onShowVersion: onShowVersion && ((index) => onShowVersion(message.id, index)),
  };
}

function authorLabel(message: Message): string {
  if (message.origin === 'auto') return 'Autopilot';
  if (message.origin === 'worker') return 'Worker';
  // A user-role message Stepwise wrote (a worker's brief, the stop summary) is not the user's.
  if (message.role === 'user' && message.origin === 'system') return ROLE_LABEL.system;
  return ROLE_LABEL[message.role];
}

export function MessageView({ item, actions }: { item: DisplayItem; actions: MessageActions }) {
  const { steps } = item;
  if (steps) {
    return (
      <TurnReply
        item={{ ...item, steps }}
        label={authorLabel(item.message)}
        running={actions.running}
        agentName={actions.agentName ?? 'Assistant'}
        actions={toolbarActions(item.message, actions, () => {})}
      />
    );
  }
  // A message with versions keeps its switch, even where it would be shown quietly.
  return (!item.message.version && plumbingView(item.message)) || <FullMessage item={item} actions={actions} />;
}

function FullMessage({ item, actions }: { item: DisplayItem; actions: MessageActions }) {
  const { message } = item;
  const [editing, setEditing] = useState(false);
  const label = authorLabel(message);
  const tag = STATUS_TAG[message.status];
  const streaming = message.status === 'streaming';

  if (message.summaryThrough !== null) {
    // A compaction summary: the originals above stay; the model sees this instead.
    return (
      <article
        className="message message-system summary-note"
        aria-label="Summary of earlier messages"
        data-message-id={message.id}
      >
        <details className="summary-marker">
          <summary>Earlier messages summarized</summary>
          <Markdown text={message.content} />
        </details>
        {message.version && (
          <MessageToolbar message={message} label="Summary" actions={toolbarActions(message, actions, () => {})} />
        )}
      </article>
    );
  }

  return (
    <article
      className={`message message-${message.role} origin-${message.origin}`}
      aria-label={`${label} message`}
      data-message-id={message.id}
    >
      <div className="message-author">
        {label}
        {tag && <span className={`status-tag status-${message.status}`}>{tag}</span>}
      </div>
      {editing ? (
        <EditBox
          initial={message.content}
          onCancel={() => setEditing(false)}
          onSave={(content) => {
            setEditing(false);
            actions.onEdit?.(message.id, content);
          }}
        />
      ) : (
        <div className="message-body">
          {message.reasoning && <ThinkingBlock reasoning={message.reasoning} streaming={streaming} />}
          {message.role === 'user' ? (
            <p className="user-text">
              {revealBidiControls(message.plumbing ? plumbingLine(message.plumbing) : message.content)}
            </p>
          ) : message.content ? (
            <Markdown text={message.content} streaming={streaming} />
          ) : streaming && !item.toolCalls.length && !message.reasoning ? (
            <span className="typing" role="img" aria-label="Assistant is typing">
              <span />
              <span />
              <span />
            </span>
          ) : null}
          {streaming && message.content && <span className="caret" aria-hidden="true" />}
          {message.attachments?.length ? <MessageFiles files={message.attachments} /> : null}
        </div>
      )}
      {item.toolCalls.length > 0 && (
        <div className="tool-calls">
          {item.toolCalls.map((view) => (
            <ToolCallCard
              key={view.call.id}
              view={view}
              running={actions.running}
              agentName={actions.agentName ?? 'Assistant'}
            />
          ))}
        </div>
      )}
      {message.error && <p className="message-error">{message.error}</p>}
      {message.usage && <UsageLine usage={message.usage} model={message.model} />}
      {!editing && (
        <MessageToolbar
          message={message}
          label={label}
          actions={toolbarActions(message, actions, () => setEditing(true))}
        />
      )}
    </article>
  );
}

function EditBox(props: { initial: string; onSave: (content: string) => void; onCancel: () => void }) {
  const [value, setValue] = useState(props.initial);
  return (
    <div className="edit-box">
      <textarea
        aria-label="Edit message"
        value={value}
        autoFocus
        rows={Math.min(10, Math.max(2, value.split('\n').length))}
        onChange={(e) => setValue(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.preventDefault();
            e.stopPropagation();
            props.onCancel();
          } else if (e.key === 'Enter' && !e.shiftKey) {
            e.preventDefault();
            if (value.trim()) props.onSave(value);
          }
        }}
      />
      <div className="edit-actions">
        <button type="button" onClick={props.onCancel}>
          Cancel
        </button>
        <button type="button" className="primary" disabled={!value.trim()} onClick={() => props.onSave(value)}>
          Save and send
        </button>
      </div>
    </div>
  );
}
