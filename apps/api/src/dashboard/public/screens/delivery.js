// One webhook delivery: its every attempt and the payload, with a replay.
import { base, call, isAdmin } from '../core/api.js';
import { badge, h, num, when } from '../core/dom.js';
import { refreshLater, render } from '../core/router.js';
import { actionButton, card, facts, links, page, table, whenColumn } from '../core/ui.js';

const ATTEMPT_COLUMNS = [
  { label: '#', class: 'num', cell: (a) => a.attempt_no },
  whenColumn('Started', 'started_at'),
  { label: 'Kind', cell: (a) => (a.replay ? 'replay' : 'scheduled') },
  { label: 'Status code', class: 'num', cell: (a) => a.status_code ?? '—' },
  { label: 'Latency', class: 'num', cell: (a) => `${num(a.latency_ms)} ms` },
  { label: 'Error', cell: (a) => a.error || '' },
  { label: 'Response', class: 'mono', cell: (a) => a.response_excerpt || '' },
];

export async function deliveryPage(id) {
  const d = await call('GET', `${base()}/webhooks/deliveries/${id}`);
  const replay = actionButton(
    'Replay',
    {},
    () => call('POST', `${base()}/webhooks/deliveries/${id}/replay`).then(render),
    'Replayed; new attempts appear below.',
  );
  // While tries are still due, look again: the page shows the delivery settle.
  if (d.status === 'pending') refreshLater(1000);
  return page(
    `Delivery ${d.id}`,
    links([['#/deliveries', '← All deliveries']]),
    h(
      'section',
      { class: 'card' },
      facts([
        ['Status', badge(d.status)],
        ['Job', h('span', { class: 'mono' }, d.job_id)],
        isAdmin()
          ? ['Account', h('a', { href: `#/accounts/${d.account_id}`, class: 'mono' }, d.account_id)]
          : null,
        isAdmin() ? ['Environment', d.environment] : null,
        ['URL', h('span', { class: 'mono' }, d.url)],
        ['Attempts', d.attempt_count],
        ['Replays', d.replays],
        ['Next try', when(d.next_attempt_at)],
        ['Delivered', when(d.delivered_at)],
        ['Created', when(d.created_at)],
      ]),
      h('div', { class: 'actions' }, replay),
    ),
    card('Attempts', table('Every try, oldest first', ATTEMPT_COLUMNS, d.attempts, 'No attempt yet.')),
    payloadCard(d.payload),
  );
}

/** The payload, in a box the keyboard can scroll; the card's heading names it. */
function payloadCard(payload) {
  const section = card('Payload (sent on every attempt)');
  const pre = h(
    'pre',
    { tabindex: '0', 'aria-labelledby': section.firstChild.id },
    JSON.stringify(payload, null, 2),
  );
  section.append(pre);
  return section;
}
