// The text of the service's markdown as a reader sees it rendered: score.mjs's markdownToText drops
// images and link targets but leaves markdown's own syntax, so a snippet running across emphasis
// (`**`), a link's `[...]`, inline code or an escaped character (`\_`) failed the snippet check,
// and an escape split a word in two for the shingles. Removing that syntax keeps every word.

/** A backslash escape (kept as its character), or emphasis, strikethrough, code or link delimiters. */
const INLINE_SYNTAX = /\\([!-/:-@[-`{-~])|\*+|~~|`+|\[|\]/g;

/** A line's block syntax: heading marks, quote marks, bullets and numbers, a task's box. */
const BLOCK_PREFIX = /^\s*(?:#{1,6}\s+|(?:>\s?)+|(?:[-*+]|\d+\.)\s+(?:\[[ x]\]\s)?)*/;

/** A table's border row (`| --- | :-: |`). */
const TABLE_BORDER = /^\|(?:\s*:?-+:?\s*\|)+$/;

/** A table row's cell separators: unescaped pipes (an escaped one is the cell's text). */
const CELL_PIPE = /(^|[^\\])\|/g;

function inlineText(line: string): string {
  const cells = line.startsWith('|') ? line.replace(CELL_PIPE, '$1 ') : line;
  return cells.replace(BLOCK_PREFIX, '').replace(INLINE_SYNTAX, (_, escaped?: string) => escaped ?? '');
}

/** `text` (markdownToText's output) without markdown's syntax; fenced code is kept as it is. */
export function withoutMarkdownSyntax(text: string): string {
  let fence: string | undefined;
  return text
    .split('\n')
    .map((line) => {
      const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
      if (marker && (!fence || marker.startsWith(fence))) {
        fence = fence ? undefined : marker;
        return '';
      }
      if (fence) return line;
      return TABLE_BORDER.test(line.trim()) ? '' : inlineText(line);
    })
    .join('\n');
}
