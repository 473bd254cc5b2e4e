// Each conversation's unsent composer text, outside React so that it outlives the view:
// a send that finishes after the user switched away still clears exactly what it sent,
// and a view that mounts shows its draft in the same frame (no round trip, so nothing
// typed right after a switch can land anywhere else). Saved to core with a debounce.
import { DRAFT_MAX } from '../../shared/drafts';
import type { StepwiseApi } from '../../shared/ipc';
import { call } from '../api/apiContext';

const SAVE_DELAY_MS = 400;

export interface DraftEntry {
  text: string;
  /** A send of this draft is in flight: Enter must not send it a second time. */
  sending: boolean;
}

const EMPTY: DraftEntry = { text: '', sending: false };

export function createDraftStore(api: StepwiseApi) {
  const entries = new Map<string, DraftEntry>();
  const listeners = new Set<() => void>();
  const timers = new Map<string, ReturnType<typeof setTimeout>>();
  /** The new conversation "New conversation" reopens until its first send starts. */
  let pendingNew: string | null = null;
  let ready = false;

  const emit = () => {
    for (const listener of listeners) listener();
  };

  function get(id: string): DraftEntry {
    return entries.get(id) ?? EMPTY;
  }

  function put(id: string, patch: Partial<DraftEntry>) {
    const next = { ...get(id), ...patch };
    if (!next.text && !next.sending) entries.delete(id);
    else entries.set(id, next);
    emit();
  }

  function persist(id: string) {
    clearTimeout(timers.get(id));
    timers.delete(id);
    // A failed save leaves the text in memory; the next keystroke tries again.
    void call(api, 'drafts:save', { conversationId: id, content: get(id).text.slice(0, DRAFT_MAX) }).catch(() => {});
  }

  function flush(id?: string) {
    for (const pending of id ? [id].filter((x) => timers.has(x)) : [...timers.keys()]) persist(pending);
  }

  // A reload or a closing window must not lose the last second of typing.
  if (typeof window !== 'undefined') {
    window.addEventListener('pagehide', () => flush());
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'hidden') flush();
    });
  }

  return {
    get,
    isReady: () => ready,
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },

    /** Reads the saved drafts once at start-up; views wait for it so nothing is overwritten. */
    async load() {
      try {
        const saved = await call(api, 'drafts:list', {});
        for (const draft of saved) {
          if (!entries.has(draft.conversationId))
            entries.set(draft.conversationId, { text: draft.content, sending: false });
        }
        pendingNew ??= saved.find((draft) => !draft.stored)?.conversationId ?? null;
      } catch {
        // Without saved drafts the composer still works; nothing typed is at risk.
      } finally {
        ready = true;
        emit();
      }
    },

    setText(id: string, text: string) {
      put(id, { text });
      clearTimeout(timers.get(id));
      timers.set(
        id,
        setTimeout(() => persist(id), SAVE_DELAY_MS),
      );
    },

    flush,

    /**
     * Sends the draft once: refused while a send of it is in flight (and when empty,
     * unless `allowEmpty`: files are attached). On success exactly
     * the sent text leaves the draft (anything typed meanwhile stays); on failure it all stays.
     */
    async send(id: string, run: (text: string) => Promise<boolean>, allowEmpty = false): Promise<boolean> {
      const { text, sending } = get(id);
      if ((!text.trim() && !allowEmpty) || sending) return false;
      put(id, { sending: true });
      let ok = false;
      try {
        ok = await run(text);
      } finally {
        const current = get(id).text;
        const rest = !ok
          ? current
          : current === text
            ? ''
            : current.startsWith(text)
              ? current.slice(text.length).trimStart()
              : current;
        put(id, { sending: false, text: rest });
        if (ok) persist(id);
      }
      return ok;
    },

    /** The id of the new conversation to open: the unsent one if there is one, else a fresh one. */
    newConversationId(): string {
      if (!pendingNew || get(pendingNew).sending) pendingNew = crypto.randomUUID();
      return pendingNew;
    },
    /** A new conversation's view is open (also after a reload onto its address). */
    openedNew(id: string) {
      if (!pendingNew || !get(pendingNew).text) pendingNew = id;
    },
    /** Its first send succeeded: "New conversation" starts a fresh one from now on. */
    startedNew(id: string) {
      if (pendingNew === id) pendingNew = null;
    },
    /** Its first send failed: unless another new conversation holds text, reopen this one. */
    startFailed(id: string) {
      if (!pendingNew || (pendingNew !== id && !get(pendingNew).text)) pendingNew = id;
    },
  };
}

export type DraftStore = ReturnType<typeof createDraftStore>;
