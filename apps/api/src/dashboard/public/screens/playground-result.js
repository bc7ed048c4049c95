// The playground's answer: the page result of a sync scrape, each format in its own card (markdown
// both rendered and raw), the screenshot as an image, the metadata and the timings.
import { h, num } from '../core/dom.js';
import { renderMarkdown } from '../core/markdown.js';
import { card, facts, hint } from '../core/ui.js';
import { actionResults, png, pre } from './job.js';

const ms = (n) => (typeof n === 'number' ? `${num(n)} ms` : '—');

/** Characters of markdown rendered as elements at most: a huge page would hold up the tab. */
const RENDER_MAX = 500_000;

/** The part of `markdown` rendered: all of it, or its lines up to RENDER_MAX characters. */
function renderedPart(markdown) {
  if (markdown.length <= RENDER_MAX) return markdown;
  const line = markdown.lastIndexOf('\n', RENDER_MAX);
  return markdown.slice(0, line > 0 ? line : RENDER_MAX);
}

function markdownCard(markdown) {
  const shown = renderedPart(markdown);
  return card(
    'Markdown',
    hint(
      'Rendered as text only: links open http(s) URLs only, and remote images are not loaded (the ' +
        "dashboard's Content-Security-Policy allows only its own and data: images); they show as links.",
      shown.length < markdown.length
        ? ` Rendered: the first ${num(shown.length)} of ${num(markdown.length)} characters; the raw side has all.`
        : '',
    ),
    h(
      'div',
      { class: 'md-pair' },
      h(
        'section',
        { class: 'md', tabindex: '0', 'aria-label': 'Markdown rendered', 'data-testid': 'markdown-rendered' },
        renderMarkdown(shown),
      ),
      pre('Markdown raw', markdown),
    ),
  );
}

/** The text formats as they came. */
const TEXTS = [
  ['html', 'HTML (cleaned)'],
  ['raw_html', 'Raw HTML'],
  ['text', 'Text'],
];

/** The result `r` of a run in `env` that took `wallMs` from click to answer in this browser. */
export function resultView(r, wallMs, env) {
  return [
    card(
      'Result',
      facts([
        ['Environment', env],
        ['Status code', r.status_code ?? '—'],
        ['Final URL', h('span', { class: 'mono' }, r.final_url || '—')],
        ['Error', r.error ? `${r.error.code}: ${r.error.message}` : '—'],
      ]),
    ),
    card(
      'Timings',
      facts([
        ['Round trip', `${ms(wallMs)} (this browser: sent to answered, queue wait included)`],
        ['Total', `${ms(r.timings && r.timings.total_ms)} (the worker: fetch, render and conversion)`],
        [
          'Render',
          `${ms(r.timings && r.timings.render_ms)} (the worker: fetch and render, before conversion)`,
        ],
      ]),
    ),
    r.markdown !== undefined ? markdownCard(r.markdown) : null,
    r.screenshot
      ? card(
          'Screenshot',
          h('div', { class: 'shot-box', tabindex: '0' }, png(r.screenshot, `Screenshot of ${r.url}`)),
        )
      : null,
    TEXTS.filter(([k]) => r[k] !== undefined).map(([k, title]) => card(title, pre(title, r[k]))),
    r.links ? card(`Links (${num(r.links.length)})`, pre('Links', r.links.join('\n'))) : null,
    card(
      'Metadata',
      facts(Object.entries(r.metadata || {}).map(([k, v]) => [k, v === null ? '—' : String(v)])),
    ),
    r.actions ? card('Actions', actionResults(r)) : null,
  ];
}
