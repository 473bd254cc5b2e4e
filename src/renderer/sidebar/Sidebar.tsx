// Saved conversations: search, a virtualized list (pinned first, then folders, then by
// activity), and per-item rename / pin / move / delete.
import { lazy, Suspense, useEffect, useRef, useState, type RefObject } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useConversationPages } from './useConversationPages';
import { ConversationItem } from './ConversationItem';
import { MenuButton } from '../common/Menu';
import { SidebarToggle } from '../layout/SidebarToggle';
import { BOARD_KEYS } from '../common/shortcuts';
import './boardEntry.css';
import { call, useApi } from '../api/apiContext';
import { useGuard } from '../common/toasts';
import { FolderRow } from '../folders/FolderRow';
import type { FolderDialog } from '../folders/FolderDialogs';
import { dropFolderAt, droppedConversation, isConversationDrag } from '../folders/dragConversation';
import { RoutineEntries } from '../routines/SidebarEntries';
import type { SidebarLayout } from '../layout/useSidebarLayout';
import { useNavigation } from '../navigation/navigation';
import { onListKey, onSearchKey } from './listKeys';
import './sidebar.css';

const FolderDialogs = lazy(() => import('../folders/FolderDialogs').then((m) => ({ default: m.FolderDialogs })));

const ROW_HEIGHT = 52;
/** Search results have room for a snippet of the matching message. */
const SEARCH_ROW_HEIGHT = 84;
const FOLDER_ROW_HEIGHT = 38;
/** While a drag is over the list: the folder it would land in (null: out of any folder). */
type DropTarget = { folderId: string | null } | null;

/** Where the app is and where to go come from the navigation context; the layout says whether it shows. */
export function Sidebar(props: { layout: SidebarLayout; searchRef: RefObject<HTMLInputElement | null> }) {
  const { layout } = props;
  const nav = useNavigation();
  // Shown over a narrow window, the sidebar folds away once the user goes somewhere.
  const go =
    <A extends unknown[]>(action: (...args: A) => void) =>
    (...args: A) => {
      layout.foldIfOverlay();
      action(...args);
    };
  const [search, setSearch] = useState('');
  const [query, setQuery] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setQuery(search), 120);
    return () => clearTimeout(timer);
  }, [search]);

  const api = useApi();
  const guard = useGuard();
  const [folderDialog, setFolderDialog] = useState<FolderDialog | null>(null);
  const [dropTarget, setDropTarget] = useState<DropTarget>(null);
  const { total, itemAt, ensureRange, version } = useConversationPages(query);
  const scrollRef = useRef<HTMLDivElement>(null);
  const rowHeight = query ? SEARCH_ROW_HEIGHT : ROW_HEIGHT;
  const virtualizer = useVirtualizer({
    count: total ?? 0,
    getScrollElement: () => scrollRef.current,
    estimateSize: (index) => (itemAt(index)?.kind === 'folder' ? FOLDER_ROW_HEIGHT : rowHeight),
    overscan: 12,
  });
  // Folder headers are shorter: heights change as pages arrive.
  useEffect(() => virtualizer.measure(), [virtualizer, rowHeight, version]);
  const rows = virtualizer.getVirtualItems();
  const first = rows[0]?.index ?? 0;
  const last = rows.at(-1)?.index ?? 0;
  useEffect(() => ensureRange(first, last), [ensureRange, first, last]);

  return (
    <aside className="sidebar" aria-label="Conversations" hidden={layout.hidden}>
      <div className="sidebar-top">
        <div className="brand">
          <span className="brand-mark" aria-hidden="true">
            ✓
          </span>
          Stepwise
          <SidebarToggle hidden={false} onToggle={layout.toggle} />
        </div>
        <button type="button" className="primary new-button" onClick={go(nav.newConversation)}>
          <span aria-hidden="true">+</span> New conversation
        </button>
        <button
          type="button"
          className={nav.boardOpen ? 'ghost board-entry active' : 'ghost board-entry'}
          aria-current={nav.boardOpen ? 'page' : undefined}
          title={`Every open task list (${BOARD_KEYS})`}
          onClick={go(nav.openBoard)}
        >
          <span aria-hidden="true">☑</span> Tasks
        </button>
        <RoutineEntries current={nav.routinePage} onOpen={go(nav.openRoutinePage)} />
        <div className="sidebar-search-row">
          <input
            ref={props.searchRef}
            type="search"
            className="search"
            placeholder="Search conversations"
            aria-label="Search conversations"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Escape') setSearch('');
              else onSearchKey(e, scrollRef.current, !!query && !!total);
            }}
          />
          <button
            type="button"
            className="icon-button"
            aria-label="New folder"
            title="New folder"
            onClick={() => setFolderDialog({ kind: 'new' })}
          >
            <svg aria-hidden="true" viewBox="0 0 16 16" width="16" height="16">
              <path
                fill="currentColor"
                d="M1.5 3.5h4.2l1.5 1.5h7.3v7.5a1 1 0 0 1-1 1h-11a1 1 0 0 1-1-1Zm1.2 2.7v6.1h10.6V6.2Zm4.7.8h1.2v1.5h1.5v1.2H8.6v1.5H7.4V9.2H5.9V8h1.5Z"
              />
            </svg>
          </button>
        </div>
      </div>
      <div
        ref={scrollRef}
        className="conversation-scroll"
        onKeyDown={(event) => onListKey(event, scrollRef.current, props.searchRef)}
        onDragOver={(event) => {
          if (query || !isConversationDrag(event)) return;
          event.preventDefault();
          event.dataTransfer.dropEffect = 'move';
          const folderId = dropFolderAt(event.target);
          if (dropTarget?.folderId !== folderId) setDropTarget({ folderId });
        }}
        onDragLeave={(event) => {
          if (!scrollRef.current?.contains(event.relatedTarget as Node | null)) setDropTarget(null);
        }}
        onDrop={(event) => {
          setDropTarget(null);
          const dropped = query ? null : droppedConversation(event);
          if (!dropped) return;
          event.preventDefault();
          const folderId = dropFolderAt(event.target);
          if (folderId !== dropped.folderId)
            void guard(() => call(api, 'conversations:setFolder', { id: dropped.id, folderId }));
        }}
      >
        {total === 0 && (
          <p className="sidebar-empty">
            {query ? `No conversations match “${query}”.` : 'No conversations yet. Start one with “New conversation”.'}
          </p>
        )}
        <ul
          role="list"
          className={
            dropTarget && dropTarget.folderId === null ? 'conversation-list drop-target-none' : 'conversation-list'
          }
          style={{ height: virtualizer.getTotalSize() }}
          aria-label="Saved conversations"
        >
          {rows.map((row) => {
            const entry = itemAt(row.index);
            const item = entry?.kind === 'conversation' ? entry.conversation : undefined;
            const folder = entry?.kind === 'folder' ? entry.folder : undefined;
            const underFolder = entry?.kind === 'conversation' ? entry.underFolder : null;
            return (
              <li
                key={item?.id ?? (folder ? `folder-${folder.id}` : `row-${row.index}`)}
                className={underFolder ? 'conversation-row in-folder' : 'conversation-row'}
                data-drop-folder={folder?.id ?? underFolder ?? ''}
                style={{ transform: `translateY(${row.start}px)`, height: row.size }}
              >
                {folder ? (
                  <FolderRow
                    folder={folder}
                    dropTarget={dropTarget?.folderId === folder.id}
                    onToggle={() =>
                      void guard(() =>
                        call(api, 'folders:setCollapsed', { id: folder.id, collapsed: !folder.collapsed }),
                      )
                    }
                    onAction={(action) => setFolderDialog({ kind: action, folder })}
                  />
                ) : item ? (
                  <ConversationItem
                    conversation={item}
                    selected={item.id === nav.conversationId}
                    onSelect={() =>
                      go(nav.openConversation)(
                        item.id,
                        item.match?.messageId === undefined ? undefined : { messageId: item.match.messageId },
                      )
                    }
                    onDeleted={() => nav.deleted(item.id)}
                    onMoveToFolder={() => setFolderDialog({ kind: 'move', conversation: item })}
                  />
                ) : (
                  <div className="conversation-placeholder" aria-hidden="true" />
                )}
              </li>
            );
          })}
        </ul>
      </div>
      <div className="sidebar-bottom">
        <button
          type="button"
          className={nav.settingsOpen ? 'ghost active' : 'ghost'}
          aria-current={nav.settingsOpen ? 'page' : undefined}
          onClick={go(nav.openSettings)}
        >
          <span aria-hidden="true">⚙</span> Settings
        </button>
        <MenuButton
          label="More actions"
          items={[
            { label: 'Export all task lists…', onSelect: nav.exportAllTasks },
            { label: 'Import conversation…', onSelect: nav.importConversation },
            { label: 'Keyboard shortcuts', onSelect: nav.showShortcuts },
          ]}
        >
          ⋯
        </MenuButton>
      </div>
      {folderDialog && (
        <Suspense>
          <FolderDialogs dialog={folderDialog} onClose={() => setFolderDialog(null)} />
        </Suspense>
      )}
    </aside>
  );
}
