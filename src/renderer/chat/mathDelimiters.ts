// Models write math as $…$, $$…$$, \(…\) and \[…\]; remark-math reads the dollar forms.
// The bracket forms become dollar forms here, outside code, so every form renders.

/** True when the text may contain math worth loading KaTeX for. */
export function mayContainMath(text: string): boolean {
  return /\$[^$\s]|\\\(|\\\[/.test(text);
}

/**
 * Rewrites \(…\) to $…$, and \[…\] or a line that is only $$…$$ to a display block
 * ($$ on lines of their own, which remark-math reads as display math), leaving code alone.
 */
export function normalizeMathDelimiters(text: string): string {
  if (!text.includes('\\(') && !text.includes('\\[') && !text.includes('$$')) return text;
  // Split out code (fences first, then inline spans) and rewrite only the prose between.
  return text
    .split(/(```[\s\S]*?(?:```|$)|~~~[\s\S]*?(?:~~~|$)|`[^`\n]*`)/)
    .map((part, i) =>
      i % 2
        ? part
        : part
            .replace(/\\\[([\s\S]+?)\\\]/g, (_m, tex: string) => `\n$$\n${tex.trim()}\n$$\n`)
            .replace(/^[ \t]*\$\$([^\n$]+)\$\$[ \t]*$/gm, (_m, tex: string) => `$$\n${tex.trim()}\n$$`)
            .replace(/\\\(([\s\S]+?)\\\)/g, (_m, tex: string) => `$${tex}$`),
    )
    .join('');
}
