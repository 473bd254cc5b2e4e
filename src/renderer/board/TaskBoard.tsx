// The task board: every open task list across conversations, filtered, virtualized and
// live. Opened from the sidebar's "Tasks" entry or Ctrl/⌘+Shift+T (Alt+Shift+T).
import { useEffect, useMemo, useRef, useState } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { BoardFilter } from '../../shared/boardContract';
import type { Folder } from '../../shared/folders';
import type { Task } from '../../shared/tasks';
import { call, useApi, useEvent } from '../api/apiContext';
import { useGuard, useToast } from '../common/toasts';
import { MenuButton } from '../common/Menu';
import { deliverExport, downloadFromHost, inBrowserHost } from '../common/download';
import { BOARD_EXPORT_PATH } from '../../shared/exportContract';
import { useNavigation } from '../navigation/navigation';
import { useBoardPages } from './useBoardPages';
import { showTaskOnOpen } from './openFromBoard';
import { groupRows, PLACEHOLDER } from './boardLayout';
import { BoardGroupView } from './BoardGroupView';
import './board.css';

type StatusChoice = BoardFilter['statuses'][number];
const STATUSES: Array<{ value: StatusChoice; label: string }> = [
  { value: 'in_progress', label: 'In progress' },
  { value: 'pending', label: 'Pending' },
  { value: 'blocked', label: 'Blocked' },
  { value: 'completed', label: 'Completed' },
];

export function TaskBoard() {
  const api = useApi();
  const { openConversation } = useNavigation();
  // A task opens its conversation at the message where it last changed.
  const open = (conversationId: string, task: Task | null) => {
    showTaskOnOpen(conversationId, task);
    openConversation(conversationId, task?.lastMessageId != null ? { messageId: task.lastMessageId } : undefined);
  };
  const guard = useGuard();
  const toast = useToast();
  const [statuses, setStatuses] = useState<StatusChoice[]>([]);
  const [folderId, setFolderId] = useState<string | null>(null);
  const [typed, setTyped] = useState('');
  const [text, setText] = useState('');
  const [showCompleted, setShowCompleted] = useState(false);
  const [folders, setFolders] = useState<Folder[]>([]);
  useEffect(() => {
    const timer = setTimeout(() => setText(typed), 150);
    return () => clearTimeout(timer);
  }, [typed]);
  useEffect(() => {
    void call(api, 'folders:list', {}).then(setFolders, () => {});
  }, [api]);
  useEvent('folders:changed', ({ folders: next }) => setFolders(next), []);

  const filter = useMemo<BoardFilter>(
    () => ({ statuses, folderId, text, showCompleted }),
    [statuses, folderId, text, showCompleted],
  );
  const { count, itemAt, ensureRange, version } = useBoardPages(filter);

  // Groups not loaded yet are guessed at the loaded ones' mean height, so the scrollbar
  // hardly moves as pages arrive.
  const guess = useMemo(() => {
    let sum = 0;
    let n = 0;
    for (let i = 0; i < Math.min(count ?? 0, 200); i++) {
      const item = itemAt(i);
      if (item && !item.duplicate) {
        sum += groupRows(item.group, filter, item.closed).height;
        n += 1;
      }
    }
    return n ? Math.round(sum / n) : PLACEHOLDER;
    // `version` changes whenever loaded pages do.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [itemAt, filter, count, version]);
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: count ?? 0,
    getScrollElement: () => scrollRef.current,
    estimateSize: (index) => {
      const item = itemAt(index);
      if (!item) return guess;
      return item.duplicate ? 0 : groupRows(item.group, filter, item.closed).height;
    },
    getItemKey: (index) => {
      const item = itemAt(index);
      return item ? `${item.group.conversationId}${item.duplicate ? '-again' : ''}` : `slot-${index}`;
    },
    overscan: 2,
  });
  // Heights follow the groups' shown tasks: new pages and live changes re-measure.
  useEffect(() => virtualizer.measure(), [virtualizer, version, filter]);
  const rows = virtualizer.getVirtualItems();
  const first = rows[0]?.index ?? 0;
  const last = rows.at(-1)?.index ?? 0;
  useEffect(() => ensureRange(first, last), [ensureRange, first, last, count]);

  const toggleStatus = (value: StatusChoice) =>
    setStatuses((current) => (current.includes(value) ? current.filter((s) => s !== value) : [...current, value]));
  // The browser host streams the file over HTTP; the desktop app saves it from main.
  const exportAs = (format: 'md' | 'json' | 'csv') =>
    void (inBrowserHost()
      ? guard(() => downloadFromHost(BOARD_EXPORT_PATH, { format, filter: JSON.stringify(filter) }, toast))
      : guard(() => call(api, 'board:export', { filter, format })).then(
          (result) => result && deliverExport(result, toast),
        ));

  return (
    <section className="board" aria-label="Task board">
      <header className="board-top">
        <h1>Open tasks</h1>
        <span className="board-count" role="status">
          {count === null ? 'Loading…' : `${count} ${count === 1 ? 'list' : 'lists'}`}
        </span>
        <MenuButton
          label="Export board"
          className="board-export"
          items={[
            { label: 'Export as Markdown', onSelect: () => exportAs('md') },
            { label: 'Export as JSON', onSelect: () => exportAs('json') },
            { label: 'Export as CSV', onSelect: () => exportAs('csv') },
          ]}
        >
          Export
        </MenuButton>
      </header>
      <div className="board-filters" role="group" aria-label="Filters">
        <input
          type="search"
          className="board-search"
          placeholder="Filter by title"
          aria-label="Filter by title"
          value={typed}
          onChange={(e) => setTyped(e.target.value)}
        />
        <select
          className="board-folder-filter"
          aria-label="Folder"
          value={folderId ?? ''}
          onChange={(e) => setFolderId(e.target.value || null)}
        >
          <option value="">All folders</option>
          {folders.map((folder) => (
            <option key={folder.id} value={folder.id}>
              {folder.name}
            </option>
          ))}
        </select>
        {STATUSES.map((status) => (
          <label key={status.value} className="board-chip">
            <input
              type="checkbox"
              checked={statuses.includes(status.value)}
              onChange={() => toggleStatus(status.value)}
            />
            {status.label}
          </label>
        ))}
        <label className="board-chip">
          <input type="checkbox" checked={showCompleted} onChange={(e) => setShowCompleted(e.target.checked)} />
          Show completed lists
        </label>
      </div>
      <div ref={scrollRef} className="board-scroll">
        {count === 0 && (
          <p className="board-empty">
            {filter.text || filter.statuses.length || filter.folderId
              ? 'No task list matches the filters.'
              : 'No open tasks. Every task list is done.'}
          </p>
        )}
        <div className="board-list" style={{ height: virtualizer.getTotalSize() }}>
          {rows.map((row) => {
            const item = itemAt(row.index);
            return (
              <div
                key={row.key}
                className="board-slot"
                style={{ transform: `translateY(${row.start}px)`, height: row.size }}
              >
                {!item ? (
                  <div className="board-placeholder" aria-hidden="true" />
                ) : item.duplicate ? null : (
                  <BoardGroupView
                    group={item.group}
                    tasks={groupRows(item.group, filter, item.closed).tasks}
                    closed={item.closed}
                    onOpen={open}
                  />
                )}
              </div>
            );
          })}
        </div>
      </div>
    </section>
  );
}
