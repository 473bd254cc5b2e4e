// Paces how often a view renders a followed state that changes many times a second
// (streamed text, a burst of sidebar changes): the state itself is always current in the
// cache, the view renders at most once a frame.
import type { Pace } from './useQuery';

/**
 * How soon a change shows: `now` (a page the user scrolled for: the view keeps its place
 * only if the rows are in when the load resolves), at the next `frame` (once, however many
 * changes came in between), or `slow`: at most once every `slowMs` after the last render
 * (streamed text); any other change shows at the next frame, with the slow one waiting.
 * `late` is paced as `slow`, then shows at the frame after the next: a change that is about
 * to be followed by one that matters more (a model's tool call, before the tool's own push:
 * the task list) lets that one's handler run and draw first instead of waiting behind this render.
 */
export type Speed = 'now' | 'frame' | 'slow' | 'late';

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
    const showLate = () => {
      window.clearTimeout(timer);
      timer = 0;
      frame ||= requestAnimationFrame(() => {
        frame = requestAnimationFrame(() => {
          frame = 0;
          render();
        });
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
        const wait = how === 'slow' || how === 'late' ? renderedAt + slowMs - performance.now() : 0;
        const then = how === 'late' ? showLate : show;
        if (wait > 0) timer ||= window.setTimeout(then, wait);
        else then();
      },
      dispose: stop,
    };
  };
}
