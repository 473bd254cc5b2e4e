// Saved conversations: search, a virtualized list (pinned first, then by activity),
// and per-item rename / pin / delete.
import { useEffect, useRef, useState, type RefObject } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useConversationPages } from './useConversationPages';
import { ConversationItem } from './ConversationItem';
import { MenuButton } from '../common/Menu';
import { SidebarToggle } from '../layout/SidebarToggle';

const ROW_HEIGHT = 52;
/** Search results have room for a snippet of the matching message. */
const SEARCH_ROW_HEIGHT = 84;

export function Sidebar(props: {
  selectedId: string | null;
  /** `messageId`: a search result's matching message, to open the conversation at. */
  onSelect: (id: string, messageId?: number) => void;
  onNew: () => void;
  onDeleted: (id: string) => void;
  onOpenSettings: () => void;
  onShowShortcuts: () => void;
  onExportAllTasks: () => void;
  onImport: () => void;
  settingsOpen: boolean;
  searchRef: RefObject<HTMLInputElement | null>;
  hidden: boolean;
  onHide: () => void;
}) {
  const [search, setSearch] = useState('');
  const [query, setQuery] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setQuery(search), 120);
    return () => clearTimeout(timer);
  }, [search]);

  const { total, itemAt, ensureRange } = useConversationPages(query);
  const scrollRef = useRef<HTMLDivElement>(null);
  const rowHeight = query ? SEARCH_ROW_HEIGHT : ROW_HEIGHT;
  const virtualizer = useVirtualizer({
    count: total ?? 0,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => rowHeight,
    overscan: 12,
  });
  useEffect(() => virtualizer.measure(), [virtualizer, rowHeight]);
  const rows = virtualizer.getVirtualItems();
  const first = rows[0]?.index ?? 0;
  const last = rows.at(-1)?.index ?? 0;
  useEffect(() => ensureRange(first, last), [ensureRange, first, last]);

  return (
    <aside className="sidebar" aria-label="Conversations" hidden={props.hidden}>
      <div className="sidebar-top">
        <div className="brand">
          <span className="brand-mark" aria-hidden="true">
            ✓
          </span>
          Stepwise
          <SidebarToggle hidden={false} onToggle={props.onHide} />
        </div>
        <button type="button" className="primary new-button" onClick={props.onNew}>
          <span aria-hidden="true">+</span> New conversation
        </button>
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
          }}
        />
      </div>
      <div ref={scrollRef} className="conversation-scroll">
        {total === 0 && (
          <p className="sidebar-empty">
            {query ? `No conversations match “${query}”.` : 'No conversations yet. Start one with “New conversation”.'}
          </p>
        )}
        <ul role="list" className="conversation-list" style={{ height: virtualizer.getTotalSize() }} aria-label="Saved conversations">
          {rows.map((row) => {
            const item = itemAt(row.index);
            return (
              <li
                key={item?.id ?? `row-${row.index}`}
                className="conversation-row"
                style={{ transform: `translateY(${row.start}px)`, height: rowHeight }}
              >
                {item ? (
                  <ConversationItem
                    conversation={item}
                    selected={item.id === props.selectedId}
                    onSelect={() => props.onSelect(item.id, item.match?.messageId)}
                    onDeleted={() => props.onDeleted(item.id)}
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
          className={props.settingsOpen ? 'ghost active' : 'ghost'}
          aria-current={props.settingsOpen ? 'page' : undefined}
          onClick={props.onOpenSettings}
        >
          <span aria-hidden="true">⚙</span> Settings
        </button>
        <MenuButton
          label="More actions"
          items={[
            { label: 'Export all task lists…', onSelect: props.onExportAllTasks },
            { label: 'Import conversation…', onSelect: props.onImport },
            { label: 'Keyboard shortcuts', onSelect: props.onShowShortcuts },
          ]}
        >
          ⋯
        </MenuButton>
      </div>
    </aside>
  );
}
