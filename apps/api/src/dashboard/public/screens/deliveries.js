// The webhook delivery log and the dead letters: one page for a customer (/v1, its environment) and
// an admin (/admin/v1, every account, filterable by account).
import { base, call, isAdmin, qs, session } from '../core/api.js';
import { outcomeChart } from '../core/charts.js';
import { badge, h } from '../core/dom.js';
import { filterForm, go, render } from '../core/router.js';
import {
  accountColumn,
  actionButton,
  card,
  field,
  grid,
  hint,
  page,
  row,
  select,
  textInput,
  whenColumn,
} from '../core/ui.js';

const replayButton = (d) =>
  actionButton(
    'Replay',
    { class: 'quiet', 'aria-label': `Replay delivery ${d.id}` },
    () => call('POST', `${base()}/webhooks/deliveries/${d.id}/replay`).then(() => go(`#/deliveries/${d.id}`)),
    `Delivery ${d.id} replayed.`,
  );

const columns = () => [
  { label: 'Delivery', class: 'mono', cell: (d) => h('a', { href: `#/deliveries/${d.id}` }, d.id) },
  { label: 'Job', class: 'mono', cell: (d) => d.job_id },
  isAdmin() && accountColumn,
  { label: 'Status', cell: (d) => badge(d.status) },
  { label: 'Attempts', class: 'num', cell: (d) => d.attempt_count },
  { label: 'Last code', class: 'num', cell: (d) => d.last_status_code ?? '—' },
  whenColumn('Created', 'created_at'),
  { label: '', cell: replayButton },
];

/** Replays every delivery the filter matches, page by page; resolves to how many were replayed. */
async function replayAll(filter) {
  let replayed = 0;
  let cursor;
  do {
    const res = await call('POST', `${base()}/webhooks/deliveries/replay`, {
      ...Object.fromEntries(Object.entries(filter).filter(([, v]) => v)),
      ...(cursor ? { cursor } : {}),
    });
    replayed += res.replayed;
    cursor = res.next;
  } while (cursor);
  return replayed;
}

/** `dead`: the dead letters, i.e. the failed deliveries, without a status filter. */
export async function deliveriesPage(query, dead) {
  const filter = {
    status: dead ? 'failed' : query.get('status') || '',
    job_id: query.get('job_id') || '',
    account_id: query.get('account_id') || '',
  };
  const status = select(
    'status',
    [
      ['', 'any'],
      ['pending', 'pending'],
      ['succeeded', 'succeeded'],
      ['failed', 'failed (dead letter)'],
    ],
    filter.status,
  );
  const jobId = textInput(filter.job_id, { placeholder: 'job_…' });
  const account = textInput(filter.account_id, { placeholder: 'acc_…' });
  const form = filterForm(
    'Filter deliveries',
    [
      dead ? null : field('Status', status),
      field('Job id', jobId),
      isAdmin() ? field('Account id', account) : null,
    ],
    'Filter',
    () =>
      `${dead ? '#/dead-letters' : '#/deliveries'}${qs({
        status: dead ? undefined : status.value,
        job_id: jobId.value.trim(),
        account_id: isAdmin() ? account.value.trim() : undefined,
      })}`,
  );

  const listQuery = { ...filter, account_id: isAdmin() ? filter.account_id : undefined };
  const list = (cursor) =>
    call('GET', `${base()}/webhooks/deliveries${qs({ ...listQuery, limit: 100, cursor })}`);
  const first = await list();
  const shown = columns();
  const rows = h('tbody');
  const counts = { succeeded: 0, failed: 0, pending: 0 };
  const addRows = (data) => {
    for (const d of data) {
      counts[d.status] += 1;
      rows.append(row(shown, d, { 'data-delivery': d.id }));
    }
  };
  addRows(first.data);
  let next = first.next;
  const more = actionButton('Load more', { class: 'quiet', hidden: !next }, async () => {
    const res = await list(next);
    addRows(res.data);
    next = res.next;
    more.hidden = !next;
  });
  const bulk = actionButton(
    dead ? 'Replay all dead letters' : 'Replay all matching',
    { disabled: !first.data.length },
    async () => {
      const replayed = await replayAll(listQuery);
      await render();
      return replayed;
    },
    (n) => `${n} deliveries replayed.`,
    'Send every matching delivery again (new attempts, same webhook-id)?',
  );

  return page(
    dead ? 'Dead letters' : 'Webhook deliveries',
    hint(
      dead
        ? 'Deliveries whose every try failed. Fix the receiver, then replay them.'
        : isAdmin()
          ? 'Deliveries of every account, newest first.'
          : `Deliveries of the ${session.env} environment, newest first.`,
    ),
    form,
    first.data.length ? card('Outcomes of the deliveries listed', outcomeChart(counts)) : null,
    h('div', { class: 'actions' }, bulk),
    first.data.length ? grid('Deliveries', shown, rows) : hint('No deliveries match.'),
    more,
  );
}
