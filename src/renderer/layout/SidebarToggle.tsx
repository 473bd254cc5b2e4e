// The one control that hides and shows the sidebar; its name says what a press does.
import type { ReactNode } from 'react';
import { SEARCH_KEYS, SIDEBAR_KEYS } from '../common/shortcuts';
import { useNavigation } from '../navigation/navigation';
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

/**
 * What stays of the sidebar while it is hidden (and in a narrow window): show it, start a
 * conversation, search, the conversation list, and Settings, as icons named by their tooltips.
 */
export function SidebarRail() {
  const navigation = useNavigation();
  return (
    <nav className="sidebar-rail" aria-label="Sidebar">
      <SidebarToggle hidden onToggle={navigation.showSidebar} />
      <RailButton label="New conversation" onClick={navigation.newConversation}>
        <path d="M8 3v10M3 8h10" />
      </RailButton>
      <RailButton label="Search conversations" shortcut={SEARCH_KEYS} onClick={navigation.focusSearch}>
        <circle cx="7" cy="7" r="4.5" />
        <path d="M10.5 10.5 14 14" />
      </RailButton>
      <RailButton label="Conversations" onClick={navigation.focusConversations}>
        <path d="M3 4h10M3 8h10M3 12h7" />
      </RailButton>
      <span className="rail-spacer" />
      <RailButton
        label="Settings"
        shortcut="Ctrl/⌘ + ,"
        current={navigation.settingsOpen}
        onClick={navigation.openSettings}
        glyph="⚙"
      />
    </nav>
  );
}

/** An icon button: line art (`children`, a 16×16 SVG's content) or a text glyph like the sidebar's own ⚙. */
function RailButton(props: {
  label: string;
  shortcut?: string;
  current?: boolean;
  onClick: () => void;
  children?: ReactNode;
  glyph?: string;
}) {
  return (
    <button
      type="button"
      className={props.current ? 'ghost rail-button active' : 'ghost rail-button'}
      aria-label={props.label}
      aria-current={props.current ? 'page' : undefined}
      title={props.shortcut ? `${props.label} (${props.shortcut})` : props.label}
      onClick={props.onClick}
    >
      {props.glyph ? (
        <span className="rail-glyph" aria-hidden="true">
          {props.glyph}
        </span>
      ) : (
        <svg
          viewBox="0 0 16 16"
          width="16"
          height="16"
          aria-hidden="true"
          focusable="false"
          fill="none"
          stroke="currentColor"
          strokeWidth="1.4"
          strokeLinecap="round"
        >
          {props.children}
        </svg>
      )}
    </button>
  );
}
