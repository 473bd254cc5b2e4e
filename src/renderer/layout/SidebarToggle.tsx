// The one control that hides and shows the sidebar; its name says what a press does.
import { SIDEBAR_KEYS } from '../common/shortcuts';
import './layout.css';

export function SidebarToggle({ hidden, onToggle }: { hidden: boolean; onToggle: () => void }) {
  const label = hidden ? 'Show sidebar' : 'Hide sidebar';
  return (
    <button
      type="button"
      className="ghost sidebar-toggle"
      aria-label={label}
      aria-keyshortcuts="Control+B Meta+B"
      title={`${label} (${SIDEBAR_KEYS})`}
      onClick={onToggle}
    >
      <svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" focusable="false">
        <rect x="1.5" y="2.5" width="13" height="11" rx="2" fill="none" stroke="currentColor" />
        <line x1="6" y1="2.5" x2="6" y2="13.5" stroke="currentColor" />
      </svg>
    </button>
  );
}

/** What stays of the sidebar while it is hidden: show it again, or start a conversation. */
export function SidebarRail({ onShow, onNew }: { onShow: () => void; onNew: () => void }) {
  return (
    <nav className="sidebar-rail" aria-label="Sidebar">
      <SidebarToggle hidden onToggle={onShow} />
      <button type="button" className="ghost rail-new" aria-label="New conversation" title="New conversation" onClick={onNew}>
        <span aria-hidden="true">+</span>
      </button>
    </nav>
  );
}
