// Notices the UI must show (a moved-aside database, reset settings, MCP servers left out),
// and the calls that list and dismiss them.
import type { Notice } from '../../../shared/domain';
import type { EventBus } from '../ipc/eventBus';
import type { HandlersFor } from '../../../shared/contract';
import type { noticeCalls } from '../../../shared/noticesContract';

export function createNotices(bus: EventBus) {
  let notices: Notice[] = [];
  const api = {
    list: () => notices,
    add(notice: Notice) {
      notices = [...notices.filter((n) => n.id !== notice.id), notice];
      bus.emit('notices:changed', notices);
    },
    /** The start-up notices each owner reports (null: nothing to say). */
    addAll(found: Array<Notice | null>) {
      for (const notice of found) if (notice) api.add(notice);
    },
    dismiss(id: string) {
      notices = notices.filter((n) => n.id !== id);
      bus.emit('notices:changed', notices);
      return notices;
    },
  };
  const handlers: HandlersFor<typeof noticeCalls> = {
    'notices:list': () => api.list(),
    'notices:dismiss': ({ id }) => api.dismiss(id),
  };
  return { ...api, handlers };
}

export type Notices = ReturnType<typeof createNotices>;
