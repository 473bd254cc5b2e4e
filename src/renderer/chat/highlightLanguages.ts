// highlight.js grammars load when a code block first needs one, so the first paint does
// not carry some forty languages. Loaded grammars feed rehype-highlight's `languages`.
import type { LanguageFn } from 'highlight.js';

type Loader = () => Promise<{ default: LanguageFn }>;

// The languages lowlight calls common, each its own chunk.
const loaders: Record<string, Loader> = {
  arduino: () => import('highlight.js/lib/languages/arduino'),
  bash: () => import('highlight.js/lib/languages/bash'),
  c: () => import('highlight.js/lib/languages/c'),
  cpp: () => import('highlight.js/lib/languages/cpp'),
  csharp: () => import('highlight.js/lib/languages/csharp'),
  css: () => import('highlight.js/lib/languages/css'),
  diff: () => import('highlight.js/lib/languages/diff'),
  go: () => import('highlight.js/lib/languages/go'),
  graphql: () => import('highlight.js/lib/languages/graphql'),
  ini: () => import('highlight.js/lib/languages/ini'),
  java: () => import('highlight.js/lib/languages/java'),
  javascript: () => import('highlight.js/lib/languages/javascript'),
  json: () => import('highlight.js/lib/languages/json'),
  kotlin: () => import('highlight.js/lib/languages/kotlin'),
  less: () => import('highlight.js/lib/languages/less'),
  lua: () => import('highlight.js/lib/languages/lua'),
  makefile: () => import('highlight.js/lib/languages/makefile'),
  markdown: () => import('highlight.js/lib/languages/markdown'),
  objectivec: () => import('highlight.js/lib/languages/objectivec'),
  perl: () => import('highlight.js/lib/languages/perl'),
  php: () => import('highlight.js/lib/languages/php'),
  plaintext: () => import('highlight.js/lib/languages/plaintext'),
  python: () => import('highlight.js/lib/languages/python'),
  r: () => import('highlight.js/lib/languages/r'),
  ruby: () => import('highlight.js/lib/languages/ruby'),
  rust: () => import('highlight.js/lib/languages/rust'),
  scss: () => import('highlight.js/lib/languages/scss'),
  shell: () => import('highlight.js/lib/languages/shell'),
  sql: () => import('highlight.js/lib/languages/sql'),
  swift: () => import('highlight.js/lib/languages/swift'),
  typescript: () => import('highlight.js/lib/languages/typescript'),
  xml: () => import('highlight.js/lib/languages/xml'),
  yaml: () => import('highlight.js/lib/languages/yaml'),
};

// Fence tags people write, to the grammar that knows them (each grammar also registers
// its own aliases once loaded).
const aliases: Record<string, string> = {
  sh: 'bash',
  zsh: 'bash',
  console: 'shell',
  js: 'javascript',
  jsx: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  ts: 'typescript',
  tsx: 'typescript',
  py: 'python',
  rb: 'ruby',
  rs: 'rust',
  yml: 'yaml',
  md: 'markdown',
  html: 'xml',
  htm: 'xml',
  svg: 'xml',
  xhtml: 'xml',
  h: 'c',
  hpp: 'cpp',
  cc: 'cpp',
  'c++': 'cpp',
  cs: 'csharp',
  kt: 'kotlin',
  golang: 'go',
  toml: 'ini',
  patch: 'diff',
  gql: 'graphql',
  jsonc: 'json',
  json5: 'json',
  text: 'plaintext',
  txt: 'plaintext',
  objc: 'objectivec',
  pl: 'perl',
  mk: 'makefile',
};

/** Grammars loaded so far, by name: pass as rehype-highlight's `languages`. */
export const loadedLanguages: Record<string, LanguageFn> = {};
const pending = new Map<string, Promise<void>>();

function grammarFor(tag: string): string | undefined {
  const name = tag.toLowerCase();
  const grammar = aliases[name] ?? name;
  return Object.hasOwn(loaders, grammar) ? grammar : undefined;
}

/** The fence languages of a Markdown text that are known but not loaded yet. */
export function missingLanguages(markdown: string): string[] {
  const missing = new Set<string>();
  for (const match of markdown.matchAll(/^ {0,3}(?:```|~~~)[ \t]*([^\s`{]+)/gm)) {
    const grammar = grammarFor(match[1]);
    if (grammar && !loadedLanguages[grammar]) missing.add(grammar);
  }
  return [...missing];
}

/** Loads grammars; resolves once all are registered (failures leave the code plain). */
export function loadLanguages(names: string[]): Promise<void> {
  return Promise.all(
    names.map((name) => {
      let loading = pending.get(name);
      if (!loading) {
        loading = loaders[name]().then(
          (module) => void (loadedLanguages[name] = module.default),
          () => {},
        );
        pending.set(name, loading);
      }
      return loading;
    }),
  ).then(() => {});
}
