// Admin: one account: plan, suspension, usage, keys and webhook secret rotation.
import { call, qs } from '../core/api.js';
import { badge, h, num, percent, when } from '../core/dom.js';
import { render } from '../core/router.js';
import {
  actionButton,
  actionForm,
  card,
  facts,
  field,
  hint,
  links,
  page,
  select,
  table,
} from '../core/ui.js';
import { plansOptions } from './accounts.js';
import { keysSection } from './keys.js';

const ENVIRONMENTS = ['production', 'sandbox'];

function suspendButton(a) {
  const suspended = a.status === 'suspended';
  return actionButton(
    suspended ? 'Reactivate' : 'Suspend',
    { class: suspended ? null : 'danger' },
    () =>
      call('PATCH', `/admin/v1/accounts/${a.id}`, { status: suspended ? 'active' : 'suspended' }).then(
        render,
      ),
    suspended ? 'Account reactivated.' : 'Account suspended.',
    suspended ? null : 'Suspend this account? Its keys stop working now.',
  );
}

/** Admins rotate; the answer says until when the old secret signs, never the secret itself. */
function rotateForm(id) {
  const env = select(
    'environment',
    ENVIRONMENTS.map((e) => [e, e]),
    'production',
  );
  const expireNow = h('input', { type: 'checkbox' });
  const rotated = h('p', { 'aria-live': 'polite' });
  const form = actionForm(
    'Rotate webhook secret',
    [field('Environment', env), h('div', {}, h('label', {}, expireNow, ' Expire the old secret now'))],
    'Rotate webhook secret',
    async () => {
      const r = await call(
        'POST',
        `/admin/v1/accounts/${id}/webhooks/secret/rotate${qs({ environment: env.value, expire_now: expireNow.checked ? 'true' : undefined })}`,
      );
      rotated.textContent = `Rotated ${r.environment} at ${when(r.rotated_at)}; ${r.previous_expires_at ? `the old secret signs until ${when(r.previous_expires_at)}` : 'the old secret no longer signs'}. The customer reveals the new one in Settings › Webhooks.`;
    },
    'Secret rotated.',
  );
  return [form, rotated];
}

/** Columns of an environment's usage; the items are { environment, ...its usage }. */
const USAGE_COLUMNS = [
  { label: 'Environment', cell: (u) => u.environment },
  { label: 'This month', class: 'num', cell: (u) => num(u.requests_this_month) },
  { label: 'Today', class: 'num', cell: (u) => num(u.requests_today) },
  { label: 'Success', class: 'num', cell: (u) => percent(u.success_rate) },
  { label: 'Avg render', class: 'num', cell: (u) => `${num(u.avg_response_ms)} ms` },
];

export async function accountPage(id) {
  const [a, plans] = await Promise.all([call('GET', `/admin/v1/accounts/${id}`), plansOptions()]);
  const plan = select('plan', plans, a.plan);
  const planForm = actionForm(
    'Change plan',
    [field('Plan', plan)],
    'Change plan',
    () => call('PATCH', `/admin/v1/accounts/${id}`, { plan: plan.value }).then(render),
    'Plan changed.',
  );
  return page(
    a.email,
    links([
      ['#/accounts', '← Accounts'],
      [`#/jobs?account_id=${id}`, 'Jobs'],
      [`#/deliveries?account_id=${id}`, 'Deliveries'],
      [`#/dead-letters?account_id=${id}`, 'Dead letters'],
    ]),
    h(
      'section',
      { class: 'card' },
      facts([
        ['Id', h('span', { class: 'mono' }, a.id)],
        ['Plan', a.plan],
        ['Status', badge(a.status)],
        ['Created', when(a.created_at)],
      ]),
      planForm,
      h('div', { class: 'actions' }, suspendButton(a)),
    ),
    card(
      'Usage this month',
      table(
        'Pages by environment',
        USAGE_COLUMNS,
        ENVIRONMENTS.map((environment) => ({ environment, ...a.usage[environment] })),
      ),
    ),
    await keysSection({
      list: async () => (await call('GET', `/admin/v1/accounts/${id}/keys`)).data,
      create: ({ name, environment }) => call('POST', `/admin/v1/accounts/${id}/keys`, { name, environment }),
      revoke: (keyId) => call('DELETE', `/admin/v1/keys/${keyId}`),
      environments: ENVIRONMENTS,
    }),
    card(
      'Webhook secret',
      hint('Admins rotate; only the account itself can reveal a secret.'),
      rotateForm(id),
    ),
  );
}
