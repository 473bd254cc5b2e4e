// KaTeX and its stylesheet are large: this module is imported only once a message
// contains math (see Markdown.tsx), so the first paint does not carry them.
import 'katex/dist/katex.min.css';
import rehypeKatex from 'rehype-katex';
import remarkMath from 'remark-math';

export { remarkMath };
/** Broken TeX renders as its source (KaTeX's error colour), never as a thrown error. */
export const rehypeMath = [rehypeKatex, { throwOnError: false, strict: 'ignore', trust: false }] as const;
