// "Do this now" requests from the shell to a view: addressed to one conversation, kept
// until its view takes them, taken once, replaced by a newer one.
import { describe, expect, it } from 'vitest';
import { createRequests } from '../../src/renderer/navigation/requests';

describe('navigation requests', () => {
  it('waits for the view it is addressed to, which takes it once', () => {
    const requests = createRequests();
    requests.request('showMessage', 'conversation-b', { messageId: 42 });
    // The view still shown (another conversation) does not get it.
    expect(requests.take('showMessage', 'conversation-a')).toBeUndefined();
    // The view that mounts for it does, once.
    expect(requests.take('showMessage', 'conversation-b')).toEqual({ payload: { messageId: 42 } });
    expect(requests.take('showMessage', 'conversation-b')).toBeUndefined();
  });

  it('tells the mounted views at once, and keeps kinds apart', () => {
    const requests = createRequests();
    const taken: string[] = [];
    const stop = requests.subscribe(() => {
      if (requests.take('rename', 'a')) taken.push('rename a');
      if (requests.take('focusComposer', 'a')) taken.push('focus a');
    });
    requests.request('focusComposer', 'a', null);
    requests.request('rename', 'a', null);
    stop();
    requests.request('rename', 'a', null);
    expect(taken).toEqual(['focus a', 'rename a']);
    // Once unsubscribed, the request waits for the next view of "a".
    expect(requests.take('rename', 'a')).toEqual({ payload: null });
  });

  it('a newer request replaces the pending one, and a navigation without one cancels it', () => {
    const requests = createRequests();
    requests.request('showMessage', 'a', { messageId: 1 });
    requests.request('showMessage', 'b', { messageId: 2 });
    expect(requests.take('showMessage', 'a')).toBeUndefined();
    requests.cancel('showMessage');
    expect(requests.take('showMessage', 'b')).toBeUndefined();
  });
});
