// A folder's header in the sidebar: a toggle that collapses it (aria-expanded), a drop
// target for dragged conversations, and a menu to rename, export or delete it, or set the
// folders its conversations' MCP tools may use.
import type { Folder } from '../../shared/folders';
import { MenuButton } from '../common/Menu';
import { revealBidiControls } from '../../shared/bidi';
import './folders.css';

export type FolderAction = 'rename' | 'roots' | 'export' | 'delete';

export function FolderRow(props: {
  folder: Folder;
  dropTarget: boolean;
  onToggle: () => void;
  onAction: (action: FolderAction) => void;
}) {
  const { folder } = props;
  const name = revealBidiControls(folder.name);
  return (
    <div className={props.dropTarget ? 'folder-row drop-target' : 'folder-row'}>
      <button type="button" className="folder-toggle" aria-expanded={!folder.collapsed} onClick={props.onToggle}>
        <svg className="folder-chevron" aria-hidden="true" viewBox="0 0 16 16" width="12" height="12">
          <path fill="currentColor" d="M6 3.5 10.5 8 6 12.5 5 11.5 8.5 8 5 4.5Z" />
        </svg>
        <svg className="folder-icon" aria-hidden="true" viewBox="0 0 16 16" width="14" height="14">
          <path
            fill="currentColor"
            d="M1.5 3.5h4.2l1.5 1.5h7.3v7.5a1 1 0 0 1-1 1h-11a1 1 0 0 1-1-1Zm1.2 2.7v6.1h10.6V6.2Z"
          />
        </svg>
        <span className="sr-only">Folder </span>
        <span className="folder-name">{name}</span>
        <span className="folder-count">
          {folder.count}
          <span className="sr-only"> {folder.count === 1 ? 'conversation' : 'conversations'}</span>
        </span>
      </button>
      <MenuButton
        className="conversation-menu"
        label={`Actions for folder ${name}`}
        items={[
          { label: 'Rename folder…', onSelect: () => props.onAction('rename') },
          { label: 'Folders the tools may use…', onSelect: () => props.onAction('roots') },
          { label: 'Export folder…', onSelect: () => props.onAction('export'), disabled: folder.count === 0 },
          { label: 'Delete folder…', danger: true, onSelect: () => props.onAction('delete') },
        ]}
      >
        ⋯
      </MenuButton>
    </div>
  );
}
