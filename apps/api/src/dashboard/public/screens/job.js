// One job: its progress and its page results, with what their page actions brought back
// (screenshots as images, script returns, snapshots). One page for a customer and an admin.
import { base, call, qs } from '../core/api.js';
import { badge, h, num, when } from '../core/dom.js';
import { refreshLater } from '../core/router.js';
import { card, facts, hint, links, page } from '../core/ui.js';

/** Page results a view shows at once: each may carry several screenshots. */
const PAGE_SIZE = 10;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** A PNG the API returned as base64, as an image; anything else is not shown. */
export function png(data, alt) {
  if (typeof data !== 'string' || !BASE64.test(data)) return h('p', { class: 'hint' }, `${alt}: not a PNG`);
  return h('img', { class: 'shot', src: `data:image/png;base64,${data}`, alt });
}

/** A value in a box the keyboard can scroll. */
export const pre = (label, text) => h('pre', { tabindex: '0', 'aria-label': label }, text);

/** What a page's actions brought back, in their order (docs/api.md, "Page actions"). */
export function actionResults(p) {
  const a = p.actions;
  if (!a) return null;
  const shots = a.screenshots.map((s, i) =>
    h(
      'figure',
      {},
      png(s, `Action screenshot ${i + 1} of page ${p.index}`),
      h('figcaption', {}, `Screenshot ${i + 1}`),
    ),
  );
  const returns = a.javascript_returns.map((r, i) =>
    h(
      'div',
      {},
      h('h4', {}, `Script ${i + 1} returned ${r.type}`),
      pre(`Script ${i + 1} return of page ${p.index}`, JSON.stringify(r.value, null, 2)),
    ),
  );
  const scrapes = a.scrapes.map((s, i) =>
    h(
      'details',
      {},
      h('summary', {}, `Snapshot ${i + 1}: ${s.url} (${num(s.html.length)} characters)`),
      pre(`Snapshot ${i + 1} of page ${p.index}`, s.html),
    ),
  );
  if (!shots.length && !returns.length && !scrapes.length) return hint('The actions brought nothing back.');
  return h('div', { class: 'action-results' }, shots, returns, scrapes);
}

/** One page result: where it went, how it ended, and its action results. */
function pageCard(p) {
  const section = card(`Page ${p.index}`);
  section.dataset.page = String(p.index);
  section.append(
    facts([
      ['URL', h('span', { class: 'mono' }, p.url)],
      ['Final URL', h('span', { class: 'mono' }, p.final_url || '—')],
      ['Status code', p.status_code ?? '—'],
      ['Engine', p.metadata ? p.metadata.engine : '—'],
      ['Error', p.error ? `${p.error.code}: ${p.error.message}` : '—'],
    ]),
  );
  if (p.screenshot) section.append(png(p.screenshot, `Screenshot of page ${p.index}`));
  const actions = actionResults(p);
  if (actions) section.append(h('h3', {}, 'Actions'), actions);
  return section;
}

export async function jobPage(id, query) {
  const cursor = query.get('cursor') || undefined;
  const path = `${base()}/jobs/${encodeURIComponent(id)}`;
  const j = await call('GET', `${path}${qs({ cursor, page_size: PAGE_SIZE })}`);
  if (j.status === 'queued' || j.status === 'running') refreshLater(2000);
  const r = j.result;
  // A scrape's result is its page result; a batch's or crawl's a list of them.
  const pages = !r ? [] : r.data ? r.data : r.index !== undefined ? [r] : [];
  const next = r && r.next ? `#/jobs/${encodeURIComponent(id)}${qs({ cursor: r.next })}` : null;
  return page(
    `Job ${j.job_id}`,
    links(
      [['#/jobs', '← All jobs'], cursor ? [`#/jobs/${encodeURIComponent(id)}`, 'First pages'] : null].filter(
        Boolean,
      ),
    ),
    h(
      'section',
      { class: 'card' },
      facts([
        ['Status', badge(j.status)],
        ['Type', j.type],
        ['Pages', `${num(j.completed + j.failed)} of ${num(j.total)} done, ${num(j.failed)} failed`],
        ['Error', r && r.error ? `${r.error.code}: ${r.error.message}` : '—'],
        ['Created', when(j.created_at)],
        ['Finished', when(j.finished_at)],
      ]),
    ),
    pages.length ? pages.map(pageCard) : hint('No page has finished yet.'),
    next ? links([[next, 'Next pages →']]) : null,
  );
}
