// The Markdown renderer (micromark, unified, KaTeX hooks, highlighting: about half the
// renderer's code) is a chunk of its own, so the first paint does not wait for it. It is
// fetched right after the first paint; until it is there, a message shows its text as
// written. No Suspense: React holds a revealed boundary back for a while, and a reply
// would show its raw marks for that long.
import { revealBidiControls } from '../../shared/bidi';
import { useEffect, useState, type ComponentProps } from 'react';
import './Markdown.css';

type Renderer = typeof import('./Markdown');
let loaded: Renderer | null = null;
let loading: Promise<Renderer> | null = null;
const load = () => (loading ??= import('./Markdown').then((module) => (loaded = module)));

/** Starts fetching the renderer; called once the app has painted. */
export function preloadMarkdown(): void {
  void load();
}

type Props = ComponentProps<Renderer['Markdown']>;

export function Markdown(props: Props) {
  const [renderer, setRenderer] = useState(loaded);
  useEffect(() => {
    if (!renderer) void load().then(setRenderer);
  }, [renderer]);
  if (!renderer) return <div className="markdown md-loading">{revealBidiControls(props.text)}</div>;
  return <renderer.Markdown {...props} />;
}
