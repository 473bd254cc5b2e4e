// Paces how often a view renders a followed state that changes many times a second
// (streamed text, a burst of sidebar changes): the state itself is always current in the
// cache, the view renders at most once a frame.
import type { Pace } from './useQuery';

/**
 * How soon a change shows: `now` (a page the user scrolled for: the view keeps its place
 * only if the rows are in when the load resolves), at the next `frame` (once, however many
 * changes came in between), or `slow`: at most once every `slowMs` after the last render
 * (streamed text); any other change shows at the next frame, with the slow one waiting.
 */
export type Speed = 'now' | 'frame' | 'slow';

export function paced<T>(speed: (state: T | undefined) => Speed = () => 'frame', slowMs = 0): Pace<T> {
  return (listener, state) => {
    let frame = 0;
    let timer = 0;
    let renderedAt = 0;
    const render = () => {
      renderedAt = performance.now();
      listener();
    };
    const show = () => {
      window.clearTimeout(timer);
      timer = 0;
      frame ||= requestAnimationFrame(() => {
        frame = 0;
        render();
      });
    };
    const stop = () => {
      cancelAnimationFrame(frame);
      window.clearTimeout(timer);
      frame = timer = 0;
    };
    return {
      listener: () => {
        const how = speed(state());
        if (how === 'now') {
          stop();
          return render();
        }
        if (frame) return;
        const wait = how === 'slow' ? renderedAt + slowMs - performance.now() : 0;
        if (wait > 0) timer ||= window.setTimeout(show, wait);
        else show();
      },
      dispose: stop,
    };
  };
}
