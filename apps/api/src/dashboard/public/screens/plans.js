// Admin: the plans' limits, edited in place, and a new plan.
import { call } from '../core/api.js';
import { h } from '../core/dom.js';
import { render } from '../core/router.js';
import { actionForm, card, field, hint, page } from '../core/ui.js';

const LIMITS = [
  ['rate_per_minute', 'Requests a minute', 1],
  ['monthly_quota', 'Pages a month', 0],
  ['max_concurrent_pages', 'Concurrent pages', 1],
];

/** The limits of a plan (`values`), and its name when `withName`; `save` gets them as one body. */
function limitsForm(label, values, save, withName) {
  const inputs = Object.fromEntries(
    LIMITS.map(([key, , min]) => [
      key,
      h('input', { type: 'number', min, required: true, value: values[key] ?? '' }),
    ]),
  );
  const name = withName
    ? h('input', { type: 'text', required: true, pattern: '[a-z0-9][a-z0-9_-]{0,31}' })
    : null;
  return actionForm(
    label,
    [name && field('Name', name), LIMITS.map(([key, text]) => field(text, inputs[key]))],
    label,
    () => {
      const body = Object.fromEntries(Object.entries(inputs).map(([k, el]) => [k, Number(el.value)]));
      return save(name ? { name: name.value, ...body } : body).then(render);
    },
    `${label}: saved.`,
  );
}

export async function plansPage() {
  const plans = (await call('GET', '/admin/v1/plans')).data;
  return page(
    'Plans',
    hint('A change applies to every account on the plan from its next request.'),
    plans.map((p) =>
      h(
        'section',
        { class: 'card', 'aria-label': `Plan ${p.name}` },
        h('h2', {}, p.name),
        limitsForm(`Save ${p.name}`, p, (body) => call('PATCH', `/admin/v1/plans/${p.name}`, body)),
      ),
    ),
    card(
      'New plan',
      limitsForm('Create plan', {}, (body) => call('POST', '/admin/v1/plans', body), true),
    ),
  );
}
