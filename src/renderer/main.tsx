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

// Fetched once the first frame is on screen, so a conversation opened next has it.
requestAnimationFrame(() => setTimeout(preloadMarkdown, 0));
