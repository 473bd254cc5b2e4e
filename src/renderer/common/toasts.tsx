// Transient messages (errors from calls, confirmations) announced to screen readers.
import { createContext, useCallback, useContext, useState, type ReactNode } from 'react';
import './toasts.css';

/** A button in the toast (e.g. Undo); the toast then stays 10 s and closes when it is pressed. */
export interface ToastAction {
  label: string;
  onSelect: () => void;
}

interface Toast {
  id: number;
  text: string;
  level: 'info' | 'error';
  action?: ToastAction;
}

type Show = (text: string, level?: Toast['level'], action?: ToastAction) => void;
const ToastContext = createContext<Show>(() => {});

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const dismiss = useCallback((id: number) => setToasts((t) => t.filter((x) => x.id !== id)), []);
  const show = useCallback<Show>(
    (text, level = 'info', action) => {
      const id = Date.now() + Math.random();
      setToasts((t) => [...t.slice(-3), { id, text, level, action }]);
      setTimeout(() => dismiss(id), action ? 10_000 : level === 'error' ? 8000 : 4000);
    },
    [dismiss],
  );
  return (
    <ToastContext.Provider value={show}>
      {children}
      <div className="toasts" role="status" aria-live="polite">
        {toasts.map((t) => (
          <div key={t.id} className={`toast toast-${t.level}`}>
            {t.text}
            {t.action && (
              <button
                type="button"
                className="toast-action"
                onClick={() => {
                  dismiss(t.id);
                  t.action!.onSelect();
                }}
              >
                {t.action.label}
              </button>
            )}
          </div>
        ))}
      </div>
    </ToastContext.Provider>
  );
}

export function useToast() {
  return useContext(ToastContext);
}

/** Runs an async action and shows its error, if any, as a toast. */
export function useGuard() {
  const toast = useToast();
  return useCallback(
    async <T,>(action: () => Promise<T>): Promise<T | undefined> => {
      try {
        return await action();
      } catch (error) {
        toast(error instanceof Error ? error.message : String(error), 'error');
        return undefined;
      }
    },
    [toast],
  );
}
