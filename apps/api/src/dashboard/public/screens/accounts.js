// Admin: the accounts, searched by e-mail and status, and a new account with its first keys.
import { call, qs } from '../core/api.js';
import { badge, h } from '../core/dom.js';
import { filterForm } from '../core/router.js';
import { actionForm, anyOf, card, field, page, select, table, whenColumn } from '../core/ui.js';

const ACCOUNT_COLUMNS = [
  { label: 'E-mail', cell: (a) => h('a', { href: `#/accounts/${a.id}` }, a.email) },
  { label: 'Id', class: 'mono', cell: (a) => a.id },
  { label: 'Plan', cell: (a) => a.plan },
  { label: 'Status', cell: (a) => badge(a.status) },
  whenColumn('Created', 'created_at'),
];

/** The plans as [value, text] options of a select. */
export async function plansOptions() {
  return (await call('GET', '/admin/v1/plans')).data.map((p) => [p.name, p.name]);
}

function createAccountForm(plans) {
  const email = h('input', { type: 'email', required: true, autocomplete: 'off' });
  const plan = select('plan', plans, 'free');
  const created = h('div', { 'aria-live': 'polite' });
  const form = actionForm(
    'Create an account',
    [field('E-mail', email), field('Plan', plan)],
    'Create account',
    async () => {
      const r = await call('POST', '/admin/v1/accounts', { email: email.value, plan: plan.value });
      created.replaceChildren(
        h(
          'div',
          { class: 'card once' },
          h('p', {}, h('strong', {}, `Account ${r.account.id} created. Its keys are shown once:`)),
          r.keys.map((k) => h('p', {}, `${k.environment}: `, h('code', { class: 'secret' }, k.key))),
        ),
      );
    },
    'Account created.',
  );
  return [form, created];
}

export async function accountsPage(query) {
  const email = h('input', { type: 'search', value: query.get('email') || '', autocomplete: 'off' });
  const status = anyOf('status', ['active', 'suspended'], query.get('status') || '');
  const search = filterForm(
    'Search accounts',
    [field('E-mail contains', email), field('Status', status)],
    'Search',
    () => `#/accounts${qs({ email: email.value.trim(), status: status.value })}`,
    { role: 'search' },
  );
  const [res, plans] = await Promise.all([
    call(
      'GET',
      `/admin/v1/accounts${qs({ email: query.get('email'), status: query.get('status'), limit: 100 })}`,
    ),
    plansOptions(),
  ]);
  return page(
    'Accounts',
    search,
    table('Accounts, newest first', ACCOUNT_COLUMNS, res.data, 'No account matches.'),
    card('New account', createAccountForm(plans)),
  );
}
