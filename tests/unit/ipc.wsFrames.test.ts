// The browser host's frames, read the way the page reads them (renderer/api/wsApi.ts):
// an error answer stays an error, a result of any shape stays a result, an event is an
// event, and a frame that is none of these is refused rather than taken for a success.
import { describe, expect, it } from 'vitest';
import { resultOf, WsRequestFrame, WsServerFrame } from '../../src/shared/wsFrames';

const read = (frame: unknown) => WsServerFrame.parse(frame);

describe('browser host frames', () => {
  it('read an error answer as the call failing with its code and message', () => {
    const frame = read({ id: 7, error: { code: 'not_found', message: 'Conversation x not found' } });
    expect('event' in frame).toBe(false);
    if ('event' in frame) return;
    expect(frame.id).toBe(7);
    expect(resultOf(frame)).toEqual({ ok: false, error: { code: 'not_found', message: 'Conversation x not found' } });
  });

  it('read a result as the call succeeding, whatever its value holds', () => {
    const value = { error: 'a field of the value, not of the frame', items: [1, 2] };
    const frame = read({ id: 3, result: value });
    if ('event' in frame) throw new Error('read as an event');
    expect(resultOf(frame)).toEqual({ ok: true, value });
    const empty = read({ id: 4 });
    if ('event' in empty) throw new Error('read as an event');
    expect(resultOf(empty)).toEqual({ ok: true, value: undefined });
  });

  it('read an event with its payload', () => {
    const frame = read({ event: 'chat:status', payload: { conversationId: 'c', running: true } });
    expect(frame).toEqual({ event: 'chat:status', payload: { conversationId: 'c', running: true } });
  });

  it('refuse a frame that is neither, instead of taking a broken error for a success', () => {
    expect(WsServerFrame.safeParse({ id: 5, error: { code: 'nonsense' } }).success).toBe(false);
    expect(WsServerFrame.safeParse({ hello: 'world' }).success).toBe(false);
    expect(WsServerFrame.safeParse('text').success).toBe(false);
  });

  it('hold requests to an id, a method and params, nothing else', () => {
    expect(WsRequestFrame.safeParse({ id: 1, method: 'chat:status', params: {} }).success).toBe(true);
    const extra = WsRequestFrame.safeParse({ id: 1, method: 'chat:status', params: {}, token: 'x' });
    expect(extra.success).toBe(false);
  });
});
