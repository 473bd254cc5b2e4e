// The Markdown renderer (micromark, unified, KaTeX hooks, highlighting: about half the
// renderer's code) is a chunk of its own, so the first paint does not wait for it. It is
// fetched right after the first paint; until it is there, a message shows its text as
// written.
import { lazy, Suspense, type ComponentProps } from 'react';
import './Markdown.css';

const load = () => import('./Markdown');
const Loaded = lazy(() => load().then((module) => ({ default: module.Markdown })));

/** Starts fetching the renderer; called once the app has painted. */
export function preloadMarkdown(): void {
  void load();
}

type Props = ComponentProps<typeof Loaded>;

export function Markdown(props: Props) {
  return (
    <Suspense fallback={<div className="markdown md-loading">{props.text}</div>}>
      <Loaded {...props} />
    </Suspense>
  );
}
