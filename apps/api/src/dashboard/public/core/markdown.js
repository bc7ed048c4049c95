// Markdown to DOM, text only: every piece of the markdown becomes a text node or an attribute value
// of an element made here, never HTML, so markup a scraped page carries (<script>, <img onerror>)
// shows as text. Links open http(s) only; an image shows only from a data: URL (the dashboard's CSP
// loads no other), a remote one becomes a link to it.
import { h } from './dom.js';

const FENCE = /^ {0,3}(`{3,}|~{3,})\s*([\w+#.-]*)/;
const HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const RULE = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const QUOTE = /^ {0,3}> ?/;
const ITEM = /^ {0,3}([-*+]|\d{1,9}[.)])(?:[ \t]+|$)/;
const TABLE_RULE = /^ {0,3}\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)*\|?\s*$/;
const DATA_IMAGE = /^data:image\/(?:png|jpeg|gif|webp);base64,[A-Za-z0-9+/]+={0,2}$/;

/**
 * Inline syntax, one alternative per kind; the groups are read in inline() below. Spans are bounded
 * (a code span to 2,000 characters, emphasis to 500), so a long paragraph of unclosed marks costs a
 * bounded look-ahead per mark, not a scan to its end each.
 */
const INLINE = new RegExp(
  [
    /\\([!-/:-@[-`{-~])/.source, // 1: an escaped punctuation character
    /(`+)([^`]|[^`][\s\S]{0,2000}?[^`])\2(?!`)/.source, // 2, 3: a code span
    // 4: image mark, 5: text (one level of brackets, for a linked image), 6: URL, 7: title
    /(!?)\[((?:\\.|\[(?:\\.|[^\\\]])*\]|[^\\[\]])*)\]\(\s*<?([^\s<>()]*(?:\([^\s()]*\)[^\s<>()]*)*)>?(?:\s+"((?:\\.|[^"\\])*)")?\s*\)/
      .source,
    /(\*\*|__)(?=\S)([\s\S]{0,500}?\S)\8/.source, // 8, 9: strong
    /(\*|_)(?=\S)([\s\S]{0,500}?\S)\10/.source, // 10, 11: emphasis
    /<(https?:\/\/[^\s<>]+)>/.source, // 12: an autolink
  ].join('|'),
  'g',
);

/** The URL if it is http or https, else null (javascript:, data:, relative and malformed ones). */
function webUrl(url) {
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : null;
  } catch {
    return null;
  }
}

function link(children, url, title) {
  const href = webUrl(url);
  if (!href) return h('span', { class: 'unlinked', title: `Not a web link: ${url}` }, children);
  return h('a', { href, title, target: '_blank', rel: 'noopener noreferrer nofollow' }, children);
}

function image(alt, src, title) {
  if (DATA_IMAGE.test(src)) return h('img', { src, alt, title });
  const label = `[image: ${alt || 'no description'}]`;
  const href = webUrl(src);
  if (!href) return h('span', { class: 'unlinked' }, label);
  return h(
    'a',
    {
      href,
      class: 'remote-image',
      title: 'Not loaded here: the dashboard loads only its own and data: images',
      target: '_blank',
      rel: 'noopener noreferrer nofollow',
    },
    label,
  );
}

const unescape = (s) => s.replace(/\\([!-/:-@[-`{-~])/g, '$1');

/** A line's inline markdown as nodes and strings. */
function inline(text) {
  const out = [];
  let last = 0;
  for (const m of text.matchAll(INLINE)) {
    out.push(text.slice(last, m.index));
    last = m.index + m[0].length;
    if (m[1] !== undefined) out.push(m[1]);
    else if (m[2]) out.push(h('code', {}, m[3]));
    else if (m[5] !== undefined)
      out.push(
        m[4]
          ? image(unescape(m[5]), unescape(m[6]), m[7] && unescape(m[7]))
          : link(inline(m[5]), unescape(m[6]), m[7] && unescape(m[7])),
      );
    else if (m[8]) out.push(h('strong', {}, inline(m[9])));
    else if (m[10]) out.push(h('em', {}, inline(m[11])));
    else out.push(link([m[12]], m[12]));
  }
  out.push(text.slice(last));
  return out;
}

const startsBlock = (line) =>
  FENCE.test(line) || HEADING.test(line) || RULE.test(line) || QUOTE.test(line) || ITEM.test(line);

function fence(lines, i, out, m) {
  const close = new RegExp(`^ {0,3}${m[1][0]}{${m[1].length},}\\s*$`);
  const body = [];
  for (i++; i < lines.length && !close.test(lines[i]); i++) body.push(lines[i]);
  out.push(h('pre', { tabindex: '0' }, h('code', { 'data-language': m[2] || null }, body.join('\n'))));
  return i + 1;
}

/** A list: each item's lines, its marker's indent removed, are blocks of their own (nested lists). */
function list(lines, i, out) {
  const ordered = /\d/.test(ITEM.exec(lines[i])[1]);
  const start = ordered ? parseInt(ITEM.exec(lines[i])[1], 10) : 1;
  const el = h(ordered ? 'ol' : 'ul', { start: start !== 1 ? String(start) : null });
  for (let m; i < lines.length && (m = ITEM.exec(lines[i])) && /\d/.test(m[1]) === ordered;) {
    const indent = m[0].length;
    const body = [lines[i].slice(indent)];
    for (i++; i < lines.length; i++) {
      const line = lines[i];
      const lead = line.length - line.trimStart().length;
      if (line.trim() && lead < indent) break;
      body.push(line.slice(Math.min(lead, indent)));
    }
    while (body.length && !body.at(-1).trim()) body.pop();
    const [first, ...rest] = blocks(body);
    // A one-paragraph item is its text, not a paragraph in an item.
    el.append(h('li', {}, first && first.tagName === 'P' ? [...first.childNodes] : first, rest));
  }
  out.push(el);
  return i;
}

function table(lines, i, out) {
  const cells = (line) =>
    line
      .trim()
      .replace(/^\|/, '')
      .replace(/(?<!\\)\|$/, '')
      .split(/(?<!\\)\|/)
      .map((c) => c.trim());
  const head = cells(lines[i]);
  const rows = [];
  for (i += 2; i < lines.length && lines[i].includes('|'); i++) rows.push(cells(lines[i]));
  out.push(
    h(
      'div',
      { class: 'scroll' },
      h(
        'table',
        {},
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            head.map((c) => h('th', { scope: 'col' }, inline(c))),
          ),
        ),
        h(
          'tbody',
          {},
          rows.map((r) =>
            h(
              'tr',
              {},
              r.map((c) => h('td', {}, inline(c))),
            ),
          ),
        ),
      ),
    ),
  );
  return i;
}

/** Block structure of `lines`: headings, fenced code, rules, quotes, lists, tables, paragraphs. */
function blocks(lines) {
  const out = [];
  for (let i = 0; i < lines.length;) {
    const line = lines[i];
    let m;
    if (!line.trim()) i++;
    else if ((m = FENCE.exec(line))) i = fence(lines, i, out, m);
    else if ((m = HEADING.exec(line))) {
      out.push(h(`h${m[1].length}`, {}, inline(m[2] || '')));
      i++;
    } else if (RULE.test(line)) {
      out.push(h('hr'));
      i++;
    } else if (QUOTE.test(line)) {
      const inner = [];
      for (; i < lines.length && QUOTE.test(lines[i]); i++) inner.push(lines[i].replace(QUOTE, ''));
      out.push(h('blockquote', {}, blocks(inner)));
    } else if (ITEM.test(line)) i = list(lines, i, out);
    else if (line.includes('|') && TABLE_RULE.test(lines[i + 1] || '') && lines[i + 1].includes('-'))
      i = table(lines, i, out);
    else {
      const text = [line.trim()];
      for (i++; i < lines.length && lines[i].trim() && !startsBlock(lines[i]); i++)
        text.push(lines[i].trim());
      out.push(h('p', {}, inline(text.join('\n'))));
    }
  }
  return out;
}

/** The elements `markdown` describes (CommonMark's common part and GFM tables), built as text. */
export function renderMarkdown(markdown) {
  return blocks(String(markdown).replace(/\r\n?/g, '\n').split('\n'));
}
