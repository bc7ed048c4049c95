// Usage of the signed-in environment against its plan, and its pages a day.
import { call, session } from '../core/api.js';
import { dailyChart } from '../core/charts.js';
import { h, nextId, num, percent } from '../core/dom.js';
import { card, hint, page, table } from '../core/ui.js';

const DAY_COLUMNS = [
  { label: 'Day', cell: (d) => d.day },
  { label: 'Pages', class: 'num', cell: (d) => d.pages },
  { label: 'Succeeded', class: 'num', cell: (d) => d.succeeded },
  { label: 'Failed', class: 'num', cell: (d) => d.failed },
];

const stat = (label, value, extra) =>
  h('div', { class: 'card' }, h('dl', { class: 'stat' }, h('dt', {}, label), h('dd', {}, value, extra)));

export async function usagePage() {
  const [me, series] = await Promise.all([call('GET', '/v1/me'), call('GET', '/v1/usage?days=30')]);
  const { usage, user } = me;
  const used = usage.requests_this_month;
  const meterId = nextId();
  return page(
    'Usage',
    hint(`${session.env} environment · plan ${user.plan} · UTC days and months`),
    h(
      'div',
      { class: 'grid' },
      h(
        'div',
        { class: 'card' },
        h(
          'dl',
          { class: 'stat' },
          h('dt', { id: meterId }, 'Pages this month'),
          h('dd', { 'data-testid': 'month' }, num(used), h('small', {}, ` of ${num(user.limit)}`)),
        ),
        h('meter', {
          min: 0,
          max: user.limit,
          value: used,
          high: user.limit * 0.9,
          optimum: 0,
          'aria-labelledby': meterId,
        }),
      ),
      stat('Pages today', num(usage.requests_today)),
      stat('Success rate this month', percent(usage.success_rate)),
      stat('Average render time', `${num(usage.avg_response_ms)} ms`),
    ),
    card(
      'Pages a day, last 30 days',
      h(
        'div',
        { class: 'legend', 'aria-hidden': 'true' },
        h('span', {}, 'succeeded'),
        h('span', { class: 'bad' }, 'failed'),
      ),
      dailyChart(series.data),
      h(
        'details',
        {},
        h('summary', {}, 'The same as a table'),
        table('Pages a day', DAY_COLUMNS, series.data),
      ),
    ),
  );
}
