// Admin: the audit log of every admin write, filtered by admin, action and target.
import { call, qs } from '../core/api.js';
import { filterForm } from '../core/router.js';
import { field, hint, page, table, textInput, whenColumn } from '../core/ui.js';

const FILTERS = [
  ['admin_id', 'Admin id'],
  ['action', 'Action'],
  ['target', 'Target'],
];

const COLUMNS = [
  whenColumn('When', 'created_at'),
  { label: 'Admin', class: 'mono', cell: (e) => e.admin_id },
  { label: 'Action', cell: (e) => e.action },
  { label: 'Target', class: 'mono', cell: (e) => e.target || '—' },
  { label: 'Details', class: 'mono', cell: (e) => (e.details ? JSON.stringify(e.details) : '') },
];

export async function auditPage(query) {
  const f = Object.fromEntries(FILTERS.map(([k]) => [k, query.get(k) || '']));
  const inputs = Object.fromEntries(FILTERS.map(([k]) => [k, textInput(f[k])]));
  const form = filterForm(
    'Filter the audit log',
    FILTERS.map(([k, label]) => field(label, inputs[k])),
    'Filter',
    () => `#/audit${qs(Object.fromEntries(Object.entries(inputs).map(([k, el]) => [k, el.value.trim()])))}`,
  );
  const res = await call('GET', `/admin/v1/audit${qs({ ...f, limit: 100 })}`);
  return page(
    'Audit log',
    hint('Every admin write: who, what, on which target, when. "bootstrap" is the ADMIN_TOKEN.'),
    form,
    table('Admin actions, newest first', COLUMNS, res.data, 'No entries match.'),
  );
}
