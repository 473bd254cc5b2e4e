import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import type { StepwiseApi } from '../shared/ipc';
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

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <ApiContext.Provider value={api}>
      <App />
    </ApiContext.Provider>
  </StrictMode>,
);

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
