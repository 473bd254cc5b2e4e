// Transient messages (errors from calls, confirmations) announced to screen readers.
import { createContext, useCallback, useContext, useState, type ReactNode } from 'react';
import './toasts.css';

interface Toast {
  id: number;
  text: string;
  level: 'info' | 'error';
}

const ToastContext = createContext<(text: string, level?: Toast['level']) => void>(() => {});

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const show = useCallback((text: string, level: Toast['level'] = 'info') => {
    const id = Date.now() + Math.random();
    setToasts((t) => [...t.slice(-3), { id, text, level }]);
    setTimeout(() => setToasts((t) => t.filter((x) => x.id !== id)), level === 'error' ? 8000 : 4000);
  }, []);
  return (
    <ToastContext.Provider value={show}>
      {children}
      <div className="toasts" role="status" aria-live="polite">
        {toasts.map((t) => (
          <div key={t.id} className={`toast toast-${t.level}`}>
            {t.text}
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
