// Jobs with their progress: one page for a customer (/v1) and an admin (/admin/v1, every account).
import { base, call, isAdmin, qs } from '../core/api.js';
import { badge, h, num } from '../core/dom.js';
import { filterForm, refreshLater, render } from '../core/router.js';
import { accountColumn, actionButton, anyOf, field, page, table, textInput, whenColumn } from '../core/ui.js';

const live = (j) => j.status === 'queued' || j.status === 'running';

function progress(j) {
  const done = j.completed + j.failed;
  return [
    h('progress', {
      max: Math.max(1, j.total),
      value: done,
      'aria-label': `${done} of ${j.total} pages done`,
    }),
    h('small', {}, `${num(done)} / ${num(j.total)}${j.failed ? ` (${num(j.failed)} failed)` : ''}`),
  ];
}

const cancelButton = (j) =>
  actionButton(
    'Cancel',
    { class: 'quiet', 'aria-label': `Cancel job ${j.job_id}` },
    () => call('DELETE', `${base()}/jobs/${j.job_id}`).then(render),
    'Job cancelled.',
    `Cancel ${j.job_id}?`,
  );

const columns = () => [
  {
    label: 'Job',
    class: 'mono',
    cell: (j) => h('a', { href: `#/jobs/${encodeURIComponent(j.job_id)}` }, j.job_id),
  },
  isAdmin() && accountColumn,
  { label: 'Type', cell: (j) => j.type },
  { label: 'Status', cell: (j) => badge(j.status) },
  { label: 'Progress', cell: progress },
  whenColumn('Created', 'created_at'),
  whenColumn('Finished', 'finished_at'),
  { label: '', cell: (j) => (live(j) ? cancelButton(j) : '') },
];

export async function jobsPage(query) {
  const filter = {
    status: query.get('status') || '',
    type: query.get('type') || '',
    account_id: query.get('account_id') || '',
  };
  const status = anyOf('status', ['queued', 'running', 'completed', 'failed', 'cancelled'], filter.status);
  const type = anyOf('type', ['scrape', 'batch', 'crawl'], filter.type);
  const account = textInput(filter.account_id, { placeholder: 'acc_…' });
  const form = filterForm(
    'Filter jobs',
    [field('Status', status), field('Type', type), isAdmin() ? field('Account id', account) : null],
    'Filter',
    () =>
      `#/jobs${qs({ status: status.value, type: type.value, account_id: isAdmin() ? account.value.trim() : undefined })}`,
  );
  const res = await call(
    'GET',
    `${base()}/jobs${qs({ ...filter, account_id: isAdmin() ? filter.account_id : undefined, limit: 100 })}`,
  );
  // Running jobs move: refresh while any is queued or running and this page is still shown.
  if (res.data.some(live)) refreshLater(2000);
  return page('Jobs', form, table('Jobs, newest first', columns(), res.data, 'No jobs match.'));
}
