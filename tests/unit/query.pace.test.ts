// How `paced` spaces a followed state's renders, as the messages use it: streamed text at
// most every STREAM_RENDER_MS after the last render, any other event once at the next
// frame, an older page at once. Time is vitest's fake clock (setTimeout and
// performance.now); frames are a queue the test runs, since node has no
// requestAnimationFrame.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { STREAM_RENDER_MS } from '../../src/renderer/chat/useMessages';
import { paced, type Speed } from '../../src/renderer/query/pace';

type Change = 'page' | 'event' | 'streamed' | 'call';
const SPEED: Record<Change, Speed> = { page: 'now', event: 'frame', streamed: 'slow', call: 'late' };

let frames: Map<number, FrameRequestCallback>;
let lastFrame: number;

/** Runs the frame callbacks requested so far, as the browser's next frame would. */
function nextFrame() {
  const due = [...frames.values()];
  frames.clear();
  for (const callback of due) callback(performance.now());
}

/** A followed state with `paced` between its changes and the view's renders. */
function followed() {
  let change: Change = 'event';
  const render = vi.fn();
  const pace = paced<{ change: Change }>((state) => SPEED[state?.change ?? 'event'], STREAM_RENDER_MS);
  const { listener, dispose } = pace(render, () => ({ change }));
  return {
    render,
    dispose,
    changed(kind: Change) {
      change = kind;
      listener();
    },
  };
}

beforeEach(() => {
  frames = new Map();
  lastFrame = 0;
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
  vi.stubGlobal('window', globalThis);
  vi.stubGlobal('requestAnimationFrame', (callback: FrameRequestCallback) => {
    frames.set(++lastFrame, callback);
    return lastFrame;
  });
  vi.stubGlobal('cancelAnimationFrame', (id: number) => frames.delete(id));
  // The page has been open a while: the first streamed text is not held back by a render at zero.
  vi.advanceTimersByTime(1000);
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('paced renders', () => {
  it('renders a burst of events once, at the next frame', () => {
    const state = followed();
    state.changed('event');
    state.changed('event');
    state.changed('event');
    expect(state.render).not.toHaveBeenCalled();
    nextFrame();
    expect(state.render).toHaveBeenCalledTimes(1);
    nextFrame();
    expect(state.render).toHaveBeenCalledTimes(1);
  });

  it('renders streamed text at most every STREAM_RENDER_MS after the last render', () => {
    const state = followed();
    state.changed('streamed');
    nextFrame();
    expect(state.render).toHaveBeenCalledTimes(1);

    state.changed('streamed');
    state.changed('streamed');
    nextFrame();
    expect(state.render).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(STREAM_RENDER_MS - 1);
    nextFrame();
    expect(state.render).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1);
    nextFrame();
    expect(state.render).toHaveBeenCalledTimes(2);

    // Later than STREAM_RENDER_MS after the last render, streamed text waits only for a frame.
    vi.advanceTimersByTime(STREAM_RENDER_MS);
    state.changed('streamed');
    nextFrame();
    expect(state.render).toHaveBeenCalledTimes(3);
  });

  it('shows an event at the next frame while streamed text waits, and renders once for both', () => {
    const state = followed();
    state.changed('event');
    nextFrame();
    state.changed('streamed');
    state.changed('event');
    nextFrame();
    expect(state.render).toHaveBeenCalledTimes(2);
    vi.advanceTimersByTime(STREAM_RENDER_MS);
    nextFrame();
    expect(state.render).toHaveBeenCalledTimes(2);
  });

  it('renders an older page at once, in place of the frame and the timer that were pending', () => {
    const state = followed();
    state.changed('event');
    nextFrame();
    state.changed('streamed');
    state.changed('page');
    expect(state.render).toHaveBeenCalledTimes(2);

    state.changed('event');
    state.changed('page');
    expect(state.render).toHaveBeenCalledTimes(3);
    vi.advanceTimersByTime(STREAM_RENDER_MS);
    nextFrame();
    expect(state.render).toHaveBeenCalledTimes(3);
  });

  it('renders a tool call at the frame after the next, paced as streamed text', () => {
    const state = followed();
    state.changed('call');
    nextFrame();
    expect(state.render).not.toHaveBeenCalled();
    nextFrame();
    expect(state.render).toHaveBeenCalledTimes(1);

    // Within STREAM_RENDER_MS of the last render it waits that out first, then two frames.
    state.changed('call');
    vi.advanceTimersByTime(STREAM_RENDER_MS - 1);
    nextFrame();
    nextFrame();
    expect(state.render).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1);
    nextFrame();
    expect(state.render).toHaveBeenCalledTimes(1);
    nextFrame();
    expect(state.render).toHaveBeenCalledTimes(2);

    // Disposed between its two frames, it renders nothing.
    vi.advanceTimersByTime(STREAM_RENDER_MS);
    state.changed('call');
    nextFrame();
    state.dispose();
    nextFrame();
    expect(state.render).toHaveBeenCalledTimes(2);
  });

  it('cancels its pending frame or timer when disposed', () => {
    const waiting = followed();
    waiting.changed('event');
    nextFrame();
    waiting.changed('streamed');
    expect(vi.getTimerCount()).toBe(1);
    waiting.dispose();
    expect(vi.getTimerCount()).toBe(0);

    const framed = followed();
    framed.changed('event');
    expect(frames.size).toBe(1);
    framed.dispose();
    expect(frames.size).toBe(0);

    vi.advanceTimersByTime(STREAM_RENDER_MS);
    nextFrame();
    expect(waiting.render).toHaveBeenCalledTimes(1);
    expect(framed.render).not.toHaveBeenCalled();
  });
});
