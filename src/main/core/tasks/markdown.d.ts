// Files imported with `?raw` arrive as their text (vite and vitest; bench/run.ts adds a hook for tsx).
declare module '*.md?raw' {
  const text: string;
  export default text;
}
