import { describe, expect, it } from 'vitest';
import type { ConversationSummary } from '../../src/shared/domain';
import type { SidebarRow } from '../../src/shared/folders';
import { badgePatchedPage, patchedPage } from '../../src/renderer/sidebar/sidebarPatch';

const summary = (id: string, fields: Partial<ConversationSummary> = {}): ConversationSummary => ({
  id,
  title: `Conversation ${id}`,
  createdAt: 1,
  updatedAt: 10,
  pinned: false,
  titleSource: 'auto',
  model: null,
  folderId: null,
  tasks: null,
  ...fields,
});
const row = (conversation: ConversationSummary): SidebarRow => ({
  kind: 'conversation',
  conversation,
  underFolder: conversation.folderId,
});
const page: SidebarRow[] = [
  { kind: 'folder', folder: { id: 'f1', name: 'Work', collapsed: false, count: 1 } },
  row(summary('a', { folderId: 'f1' })),
  row(summary('b', { match: { messageId: 7, snippet: 'Conversation [b]' } })),
];

describe('patching a sidebar page with a pushed conversation', () => {
  it('updates a conversation in place when only its title or task badge changed', () => {
    const next = patchedPage(page, summary('a', { folderId: 'f1', title: 'Renamed', tasks: { done: 1, total: 3 } }));
    expect(
      next?.map((r) =>
        r.kind === 'conversation' ? [r.conversation.id, r.conversation.title, r.conversation.tasks] : r.kind,
      ),
    ).toEqual(['folder', ['a', 'Renamed', { done: 1, total: 3 }], ['b', 'Conversation b', null]]);
    // The page it was given is left as it was (React sees a new one).
    expect(page[1].kind === 'conversation' && page[1].conversation.title).toBe('Conversation a');
  });

  it('keeps a search row’s match snippet', () => {
    const next = patchedPage(page, summary('b', { tasks: { done: 2, total: 2 } }));
    const b = next?.[2];
    expect(b?.kind === 'conversation' && b.conversation.match).toEqual({ messageId: 7, snippet: 'Conversation [b]' });
  });

  it('refuses when the conversation may have moved, or is not on the page', () => {
    expect(patchedPage(page, summary('a', { folderId: 'f1', updatedAt: 11 }))).toBeNull();
    expect(patchedPage(page, summary('a', { folderId: null }))).toBeNull();
    expect(patchedPage(page, summary('b', { pinned: true }))).toBeNull();
    expect(patchedPage(page, summary('z'))).toBeNull();
  });

  it('sets a task badge from tasks:changed, and leaves a page that already shows it', () => {
    const next = badgePatchedPage(page, 'b', { done: 1, total: 4 });
    const b = next?.[2];
    expect(b?.kind === 'conversation' && [b.conversation.tasks, b.conversation.match]).toEqual([
      { done: 1, total: 4 },
      { messageId: 7, snippet: 'Conversation [b]' },
    ]);
    expect(next?.[1]).toBe(page[1]);
    expect(badgePatchedPage(next!, 'b', { done: 1, total: 4 })).toBeNull();
    expect(badgePatchedPage(next!, 'b', null)?.[2]).toMatchObject({ conversation: { id: 'b', tasks: null } });
    expect(badgePatchedPage(page, 'a', null)).toBeNull();
    expect(badgePatchedPage(page, 'z', { done: 0, total: 1 })).toBeNull();
  });
});
