import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { Notice } from '../shared/domain';
import { call, useApi, useEvent } from './api/apiContext';
import { ToastProvider, useGuard, useToast } from './common/toasts';
import { importConversation, importSummary } from './common/importConversation';
import { useConnectionState } from './common/connectionStore';
import { useView } from './common/useSelection';
import {
  isBoardKey,
  isNewConversationKey,
  isSearchKey,
  isSidebarKey,
  NEW_CONVERSATION_KEYS,
  SEARCH_ALT_KEY,
  SEARCH_KEYS,
} from './common/shortcuts';
import { KeyChips } from './common/KeyChips';
import { ActivityNotifier } from './routines/ActivityNotifier';
import { useSidebarLayout } from './layout/useSidebarLayout';
import { useSidebarFocus } from './layout/useSidebarFocus';
import { SidebarRail } from './layout/SidebarToggle';
import { Sidebar } from './sidebar/Sidebar';
import { ConversationView } from './chat/ConversationView';
import { useSettings, useTheme } from './settings/useSettings';
import { useSettingsRoute } from './settings/useSettingsRoute';
import { DraftsProvider, useDrafts, useDraftsReady } from './drafts/drafts';
import { NewConversationView } from './chat/NewConversationView';
import type { SettingsView as Settings } from '../shared/settings';
import { needsProvider } from '../shared/firstRun';
import { ExamplePrompts } from './firstRun/ExamplePrompts';
import { NavigationContext, type Navigation } from './navigation/navigation';
import { followedCall, useQuery } from './query/useQuery';
import { createRequests } from './navigation/requests';
import { useStableHandler } from './common/useLatest';

// Settings and dialogs load when first opened: they are not needed for the first paint.
const SettingsPage = lazy(() => import('./settings/SettingsPage').then((m) => ({ default: m.SettingsPage })));
const ShortcutsDialog = lazy(() => import('./common/ShortcutsDialog').then((m) => ({ default: m.ShortcutsDialog })));
const ConnectModelCard = lazy(() =>
  import('./firstRun/ConnectModelCard').then((m) => ({ default: m.ConnectModelCard })),
);
const TaskBoard = lazy(() => import('./board/TaskBoard').then((m) => ({ default: m.TaskBoard })));
const RoutinesPage = lazy(() => import('./routines/RoutinesPage').then((m) => ({ default: m.RoutinesPage })));
const ActivityPage = lazy(() => import('./routines/ActivityPage').then((m) => ({ default: m.ActivityPage })));
const ExportTasksDialog = lazy(() =>
  import('./tasks/ExportTasksDialog').then((m) => ({ default: m.ExportTasksDialog })),
);

export function App() {
  return (
    <ToastProvider>
      <DraftsProvider>
        <Shell />
      </DraftsProvider>
    </ToastProvider>
  );
}

function Shell() {
  const api = useApi();
  const guard = useGuard();
  const [view, navigate, promote] = useView();
  // "Do this now" signals to views (focus, rename, show a message), see navigation/requests.ts.
  const [requests] = useState(createRequests);
  const settingsRoute = useSettingsRoute(view, navigate, requests);
  const base = settingsRoute.base;
  const openSettings = settingsRoute.show;
  const drafts = useDrafts();
  const draftsReady = useDraftsReady();
  const settings = useSettings();
  useTheme(settings?.theme);
  const searchRef = useRef<HTMLInputElement>(null);
  const [showShortcuts, setShowShortcuts] = useState(false);
  const [exportAll, setExportAll] = useState(false);
  const toast = useToast();
  const sidebar = useSidebarLayout();

  const runImport = useCallback(async () => {
    const imported = await guard(() => importConversation(api));
    if (imported) {
      toast(importSummary(imported));
      navigate({ kind: 'conversation', id: imported.conversationId });
    }
  }, [api, guard, navigate, toast]);

  // No round trip: the new conversation is a draft until its first send stores it.
  const newConversation = useCallback(() => {
    const id = drafts.newConversationId();
    navigate({ kind: 'new', id });
    // Whenever a conversation is chosen its composer takes the focus, even when the same
    // one is chosen again (typing right after the click must land there).
    requests.request('focusComposer', id, null);
  }, [drafts, navigate, requests]);

  // An example prompt: a new conversation with the prompt in its composer, ready to send.
  const newConversationWith = useCallback(
    (text: string) => {
      const id = drafts.newConversationId();
      drafts.setText(id, text);
      navigate({ kind: 'new', id });
      requests.request('focusComposer', id, null);
    },
    [drafts, navigate, requests],
  );

  const openConversation = useCallback(
    (id: string, at?: { messageId: number }) => {
      navigate({ kind: 'conversation', id });
      // A search result opens its conversation at the matching message.
      if (at) requests.request('showMessage', id, at);
      else requests.cancel('showMessage');
      requests.request('focusComposer', id, null);
    },
    [navigate, requests],
  );

  const sidebarFocus = useSidebarFocus(sidebar, searchRef);
  // Stable: the navigation context changes only with where the app is.
  const focusSearch = useStableHandler(sidebarFocus.focusSearch);
  const focusConversations = useStableHandler(sidebarFocus.focusConversations);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const mod = event.ctrlKey || event.metaKey;
      if (isNewConversationKey(event)) {
        event.preventDefault();
        newConversation();
      } else if (isSearchKey(event)) {
        event.preventDefault();
        focusSearch();
      } else if (isBoardKey(event)) {
        event.preventDefault();
        navigate({ kind: 'board' });
      } else if (isSidebarKey(event)) {
        event.preventDefault();
        sidebar.toggle();
      } else if (event.key === 'F2' && base.kind === 'conversation' && !settingsRoute.open) {
        event.preventDefault();
        requests.request('rename', base.id, null);
      } else if (mod && event.key === ',') {
        event.preventDefault();
        openSettings();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [newConversation, openSettings, focusSearch, navigate, base, settingsRoute.open, sidebar, requests]);

  useEvent(
    'app:command',
    ({ command }) => {
      if (command === 'new-conversation') newConversation();
      else if (command === 'open-settings') openSettings();
      else if (command === 'open-shortcuts') setShowShortcuts(true);
      else if (command === 'export-all-tasks') setExportAll(true);
      else if (command === 'import-conversation') void runImport();
    },
    [newConversation, openSettings, runImport],
  );

  const navigation: Navigation = useMemo(
    () => ({
      conversationId: base.kind === 'conversation' ? base.id : null,
      boardOpen: base.kind === 'board' && !settingsRoute.open,
      routinePage: (base.kind === 'routines' || base.kind === 'activity') && !settingsRoute.open ? base.kind : null,
      settingsOpen: settingsRoute.open,
      openConversation,
      newConversation,
      openBoard: () => navigate({ kind: 'board' }),
      openRoutinePage: (kind) => navigate({ kind }),
      openSettings: () => openSettings(),
      showSidebar: sidebar.show,
      focusSearch,
      focusConversations,
      showShortcuts: () => setShowShortcuts(true),
      exportAllTasks: () => setExportAll(true),
      importConversation: () => void runImport(),
      deleted: (id) => {
        if (base.kind === 'conversation' && base.id === id) navigate({ kind: 'home' });
      },
      requests,
    }),
    [
      base,
      settingsRoute.open,
      openConversation,
      newConversation,
      navigate,
      openSettings,
      runImport,
      requests,
      sidebar.show,
      focusSearch,
      focusConversations,
    ],
  );

  return (
    <NavigationContext.Provider value={navigation}>
      <div className={sidebar.hidden ? 'app sidebar-hidden' : sidebar.overlay ? 'app sidebar-overlay' : 'app'}>
        {/* Under the sidebar shown over a narrow window the rail keeps its place, empty. */}
        {sidebar.overlay && <div className="sidebar-rail" />}
        {sidebar.hidden && <SidebarRail />}
        <Sidebar layout={sidebar} searchRef={searchRef} />
        <ActivityNotifier />
        <main className="main" aria-label="Conversation">
          <ConnectionBanner />
          <Notices />
          <div className="main-stage">
            <div className="main-view" inert={settingsRoute.open}>
              {!draftsReady && base.kind !== 'home' && base.kind !== 'board' && !isRoutinePage(base.kind) && (
                <div className="loading" aria-busy="true" />
              )}
              {draftsReady && base.kind === 'new' && (
                <NewConversationView key={base.id} id={base.id} onStarted={promote} />
              )}
              {draftsReady && base.kind === 'conversation' && (
                <ConversationView
                  key={base.id}
                  id={base.id}
                  onMissing={() => navigate({ kind: 'home' })}
                  onOpenSettings={() => openSettings('providers')}
                />
              )}
              {base.kind === 'board' && (
                <Suspense fallback={<div className="loading" aria-busy="true" />}>
                  <TaskBoard />
                </Suspense>
              )}
              {isRoutinePage(base.kind) && (
                <Suspense fallback={<div className="loading" aria-busy="true" />}>
                  {base.kind === 'routines' ? <RoutinesPage /> : <ActivityPage />}
                </Suspense>
              )}
              {base.kind === 'home' && (
                <Home onNew={newConversation} settings={settings} onExample={newConversationWith} />
              )}
            </div>
            {settingsRoute.open && (
              <Suspense fallback={<div className="loading" aria-busy="true" />}>
                <SettingsPage
                  settings={settings}
                  section={settingsRoute.section}
                  profileId={settingsRoute.profileId}
                  onSection={settingsRoute.showSection}
                  onClose={settingsRoute.close}
                />
              </Suspense>
            )}
          </div>
        </main>
        <Suspense>
          {showShortcuts && <ShortcutsDialog onClose={() => setShowShortcuts(false)} />}
          {exportAll && (
            <ExportTasksDialog conversationId={null} initialScope="all" onClose={() => setExportAll(false)} />
          )}
        </Suspense>
      </div>
    </NavigationContext.Provider>
  );
}

const isRoutinePage = (kind: string) => kind === 'routines' || kind === 'activity';

function Home({
  onNew,
  settings,
  onExample,
}: {
  onNew: () => void;
  settings: Settings | null;
  onExample: (text: string) => void;
}) {
  // Decided once the settings arrive, and kept while the card works: saving its profile may
  // count as "working" before the user has picked a model.
  const [connect, setConnect] = useState<boolean | null>(null);
  if (settings && connect === null) setConnect(needsProvider(settings));
  return (
    <div className="page-scroll">
      <section className="empty-state" aria-label="Welcome">
        <div className="empty-mark" aria-hidden="true">
          ✓
        </div>
        <h1>Stepwise</h1>
        <p>Ask for something that takes several steps. The assistant plans it as a task list and you watch it work.</p>
        {connect && settings ? (
          <Suspense fallback={<div className="loading" aria-busy="true" />}>
            <ConnectModelCard settings={settings} onConnected={() => setConnect(false)} />
          </Suspense>
        ) : (
          <button type="button" className="primary" onClick={onNew}>
            Start a new conversation
          </button>
        )}
        <ExamplePrompts onPick={onExample} />
        <p className="hint">
          <kbd>{NEW_CONVERSATION_KEYS}</kbd> new conversation ·{' '}
          <KeyChips keys={SEARCH_ALT_KEY ? [SEARCH_KEYS, SEARCH_ALT_KEY] : [SEARCH_KEYS]} /> search
        </p>
      </section>
    </div>
  );
}

function ConnectionBanner() {
  const state = useConnectionState();
  if (state === 'open') return null;
  return (
    <div className="banner banner-warning" role="alert">
      {state === 'connecting'
        ? 'Connecting to Stepwise…'
        : state === 'restarted'
          ? 'Stepwise was restarted: open the new address shown where it runs.'
          : 'Lost the connection to Stepwise. Reconnecting…'}
    </div>
  );
}

const NO_NOTICES: Notice[] = [];

function Notices() {
  const api = useApi();
  const [notices, setNotices] = useQuery(
    followedCall({ call: 'notices:list', params: {}, event: 'notices:changed', pick: (next) => next }),
    NO_NOTICES,
  );
  if (!notices.length) return null;
  return (
    <div className="notices">
      {notices.map((notice) => (
        <div key={notice.id} className={`banner banner-${notice.level}`} role="alert">
          <span>{notice.text}</span>
          <button
            type="button"
            className="ghost"
            aria-label="Dismiss notice"
            onClick={() => void call(api, 'notices:dismiss', { id: notice.id }).then(setNotices)}
          >
            ✕
          </button>
        </div>
      ))}
    </div>
  );
}
