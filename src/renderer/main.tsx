import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import type { StepwiseApi } from '../shared/ipc';
import { UPDATING_ATTRIBUTE } from '../shared/updatingNotice';
import { ApiContext } from './api/apiContext';
import { createWsApi } from './api/wsApi';
import { connectionStore } from './common/connectionStore';
import { App } from './App';
import { preloadMarkdown } from './chat/LazyMarkdown';
import './styles.css';

declare global {
  interface Window {
    stepwise?: StepwiseApi;
  }
}

// The desktop preload provides window.stepwise; in a browser the host's WebSocket does.
const api = window.stepwise ?? createWsApi(window.location, connectionStore.set);

const root = document.getElementById('root')!;
const mount = () =>
  createRoot(root).render(
    <StrictMode>
      <ApiContext.Provider value={api}>
        <App />
      </ApiContext.Provider>
    </StrictMode>,
  );
// A host that is updating its database serves this page with a notice in the root and
// holds the socket until the update ends: the app is drawn over the notice then, already
// loaded, instead of as an empty shell now (core/db/updatingPage.ts).
if (root.querySelector(`[${UPDATING_ATTRIBUTE}]`)) connectionStore.whenSettled(mount);
else mount();

// Fetched once the browser reports the first paint, so nothing but the shell is fetched
// before it (a frame's rAF can run before that frame is painted), and a conversation opened
// next has it. Without paint timing, after the first frame.
function afterFirstPaint(run: () => void): void {
  if (!PerformanceObserver.supportedEntryTypes?.includes('paint')) {
    requestAnimationFrame(() => setTimeout(run, 0));
    return;
  }
  const observer = new PerformanceObserver(() => {
    observer.disconnect();
    setTimeout(run, 0);
  });
  observer.observe({ type: 'paint', buffered: true });
}
afterFirstPaint(preloadMarkdown);
