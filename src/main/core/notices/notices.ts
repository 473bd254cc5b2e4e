// Start-up notices the UI must show (a moved-aside database, reset settings).
import type { Notice } from '../../../shared/domain';
import type { EventBus } from '../ipc/eventBus';

export function createNotices(bus: EventBus) {
  let notices: Notice[] = [];
  return {
    list: () => notices,
    add(notice: Notice) {
      notices = [...notices.filter((n) => n.id !== notice.id), notice];
      bus.emit('notices:changed', notices);
    },
    dismiss(id: string) {
      notices = notices.filter((n) => n.id !== id);
      bus.emit('notices:changed', notices);
      return notices;
    },
  };
}

export type Notices = ReturnType<typeof createNotices>;
