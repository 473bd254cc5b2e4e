import { useState } from 'react';
import type { ConversationSummary } from '../../shared/domain';
import { call, useApi } from '../api/apiContext';
import { useGuard } from '../common/toasts';
import { MenuButton } from '../common/Menu';
import { ConfirmDialog } from '../common/ConfirmDialog';
import { relativeTime } from '../common/relativeTime';
import { InlineRename } from '../common/InlineRename';
import { ExportConversationDialog } from './ExportConversationDialog';
import './searchSnippet.css';
import { revealBidiControls } from '../../shared/bidi';
import { startConversationDrag } from '../folders/dragConversation';
import '../tasks/taskBadge.css';

export function ConversationItem(props: {
  conversation: ConversationSummary;
  selected: boolean;
  onSelect: () => void;
  onDeleted: () => void;
  onMoveToFolder: () => void;
}) {
  const { conversation } = props;
  const api = useApi();
  const guard = useGuard();
  const [renaming, setRenaming] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [exporting, setExporting] = useState(false);

  if (renaming) {
    return (
      <InlineRename
        className="conversation-rename"
        initial={conversation.title}
        label="Rename conversation"
        onDone={(title) => {
          setRenaming(false);
          if (title !== null && title !== conversation.title) {
            void guard(() => call(api, 'conversations:rename', { id: conversation.id, title }));
          }
        }}
      />
    );
  }

  return (
    <div className={props.selected ? 'conversation-item selected' : 'conversation-item'}>
      <a
        href={`#/c/${conversation.id}`}
        className="conversation-link"
        aria-current={props.selected ? 'page' : undefined}
        draggable
        onDragStart={(e) => startConversationDrag(e, conversation)}
        onClick={(e) => {
          e.preventDefault();
          props.onSelect();
        }}
        onKeyDown={(e) => {
          if (e.key === 'F2') {
            e.preventDefault();
            e.stopPropagation();
            setRenaming(true);
          }
        }}
      >
        <span className="conversation-title">
          {conversation.pinned && (
            <svg className="pin" role="img" aria-label="Pinned" viewBox="0 0 16 16" width="11" height="11">
              <path
                fill="currentColor"
                d="M10.5 1.5 14.5 5.5 12.8 6.3 10.4 8.7 10.9 12.1 9.7 13.3 6.9 10.5 3.2 14.2 1.8 14.2 1.8 12.8 5.5 9.1 2.7 6.3 3.9 5.1 7.3 5.6 9.7 3.2Z"
              />
            </svg>
          )}
          {revealBidiControls(conversation.title)}
        </span>
        {conversation.match && <SearchSnippet text={conversation.match.snippet} />}
        <span className="conversation-meta">
          {conversation.tasks && (
            <span
              className={conversation.tasks.done === conversation.tasks.total ? 'task-badge done' : 'task-badge'}
              title={`${conversation.tasks.done} of ${conversation.tasks.total} tasks completed`}
            >
              {conversation.tasks.done}/{conversation.tasks.total}
            </span>
          )}
          <time dateTime={new Date(conversation.updatedAt).toISOString()}>{relativeTime(conversation.updatedAt)}</time>
        </span>
      </a>
      <MenuButton
        className="conversation-menu"
        label={`Actions for ${conversation.title}`}
        items={[
          { label: 'Rename', onSelect: () => setRenaming(true) },
          {
            label: conversation.pinned ? 'Unpin' : 'Pin',
            onSelect: () =>
              void guard(() =>
                call(api, 'conversations:setPinned', { id: conversation.id, pinned: !conversation.pinned }),
              ),
          },
          { label: 'Move to folder…', onSelect: props.onMoveToFolder },
          { label: 'Export conversation…', onSelect: () => setExporting(true) },
          { label: 'Delete…', danger: true, onSelect: () => setConfirmDelete(true) },
        ]}
      >
        ⋯
      </MenuButton>
      {exporting && (
        <ExportConversationDialog
          conversationId={conversation.id}
          title={conversation.title}
          onClose={() => setExporting(false)}
        />
      )}
      {confirmDelete && (
        <ConfirmDialog
          title="Delete conversation?"
          confirmLabel="Delete"
          danger
          onCancel={() => setConfirmDelete(false)}
          onConfirm={() => {
            setConfirmDelete(false);
            void guard(() => call(api, 'conversations:delete', { id: conversation.id })).then((r) => {
              if (r) props.onDeleted();
            });
          }}
        >
          <p>“{conversation.title}” and all its messages and task lists will be deleted. This cannot be undone.</p>
        </ConfirmDialog>
      )}
    </div>
  );
}

/** The matching message's words around the match; matched words between \u0002 and \u0003 are marked. */
function SearchSnippet({ text }: { text: string }) {
  const parts = text.replaceAll('\u0003', '\u0002').split('\u0002');
  return (
    <span className="conversation-snippet">
      {/* Split on the markers: odd parts are the matched words. */}
      {parts.map((part, i) => (i % 2 ? <mark key={i}>{part}</mark> : part))}
    </span>
  );
}
