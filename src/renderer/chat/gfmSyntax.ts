// remark-gfm doubles the cost of parsing a block, and most blocks of a reply use none of
// its syntax. Every GFM construct starts with one of these: a table's `|`,
// strikethrough's `~`, a bare link's `www.`, `http(s):` or an address's `@`, a task box
// or a footnote's `[ ]`, `[x]`, `[^`. A block with none parses the same without GFM
// (tests/unit/gfmSyntax.test.ts checks that on generated Markdown).
const GFM_SYNTAX = /[|~@]|www\.|https?:|\[[ xX^]/i;

export function mayUseGfm(text: string): boolean {
  return GFM_SYNTAX.test(text);
}
