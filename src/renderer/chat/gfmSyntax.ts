// remark-gfm doubles the cost of parsing a block, and most blocks of a reply use none of
// its syntax. Every GFM construct starts with one of these: a table's `|` (or, for one
// column, a delimiter row with a colon, `:-` or `-:`),
// strikethrough's `~`, a bare link's `www` or `http` (GFM links `www\.x` too, so no more
// than that is required) or an address's `@`, a task box or a footnote's `[` followed by
// a space, a tab, `x` or `^` — or a character reference (`&`), which GFM reads as what it
// stands for (`&#119;ww.x` is a link). A block with none parses the same without GFM
// (tests/unit/chat.gfmSyntax.test.ts checks that on generated Markdown).
const GFM_SYNTAX = /[|~@&]|:-|-:|www|http|\[[\sxX^]/i;

export function mayUseGfm(text: string): boolean {
  return GFM_SYNTAX.test(text);
}
