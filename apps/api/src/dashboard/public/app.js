// The dashboard: plain browser JavaScript, no build step. It talks to the same API a customer's
// code does (/v1 with an API key, /admin/v1 with an admin key). The key is kept in this tab's
// sessionStorage and sent only in the Authorization header, never in a URL.
'use strict';

(() => {
  const STORE = 'scraper.dashboard.key';
  const session = { key: sessionStorage.getItem(STORE), role: null, env: null };
  /** Bumped on every navigation so a page's timers and late answers know they are stale. */
  let generation = 0;

  // ---- small helpers -------------------------------------------------------------------------

  /** Builds an element; strings become text nodes (never HTML), null and false are skipped. */
  function h(tag, attrs, ...children) {
    const el = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === 'on') for (const [ev, fn] of Object.entries(v)) el.addEventListener(ev, fn);
      else if (k === 'class') el.className = v;
      else if (k in el && typeof v !== 'string') el[k] = v;
      else el.setAttribute(k, v === true ? '' : v);
    }
    append(el, children);
    return el;
  }

  function append(el, children) {
    for (const c of children.flat(Infinity)) {
      if (c === null || c === undefined || c === false) continue;
      el.append(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return el;
  }

  const SVG = 'http://www.w3.org/2000/svg';
  function s(tag, attrs, ...children) {
    const el = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs || {})) el.setAttribute(k, v);
    for (const c of children) el.append(c instanceof Node ? c : document.createTextNode(String(c)));
    return el;
  }

  const when = (iso) => (iso ? `${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC` : '—');
  const num = (n) => Number(n).toLocaleString('en');
  const badge = (status) => h('span', { class: `badge ${status}` }, status);
  const announce = (msg) => {
    const el = document.getElementById('announce');
    el.textContent = '';
    setTimeout(() => (el.textContent = msg), 30);
  };

  let uid = 0;
  /** A labelled form control: the label is tied to the control by id. */
  function field(label, control) {
    control.id = control.id || `f${++uid}`;
    return h('div', {}, h('label', { for: control.id }, label), control);
  }

  function select(name, options, value) {
    return h(
      'select',
      { name },
      options.map(([v, text]) => h('option', { value: v, selected: v === value }, text)),
    );
  }

  function qs(params) {
    const u = new URLSearchParams();
    for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') u.set(k, v);
    const q = u.toString();
    return q ? `?${q}` : '';
  }

  class ApiError extends Error {
    constructor(status, body) {
      super(body && body.detail ? body.detail : `HTTP ${status}`);
      this.status = status;
      this.body = body;
    }
  }

  async function call(method, path, body) {
    const res = await fetch(path, {
      method,
      headers: {
        Authorization: `Bearer ${session.key}`,
        Accept: 'application/json',
        ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
      },
      body: body !== undefined ? JSON.stringify(body) : undefined,
      cache: 'no-store',
      credentials: 'omit',
    });
    const data = await res.json().catch(() => null);
    if (res.status === 401 && session.role) {
      signOut('The key was refused (revoked, or the account suspended). Sign in again.');
    }
    if (!res.ok) throw new ApiError(res.status, data);
    return data;
  }

  /** Runs an action from a button: disables it meanwhile, reports the outcome politely. */
  async function act(button, fn, done) {
    button.disabled = true;
    try {
      const result = await fn();
      if (done) announce(typeof done === 'function' ? done(result) : done);
      return result;
    } catch (err) {
      showError(err);
    } finally {
      button.disabled = false;
    }
  }

  function showError(err) {
    const box = document.getElementById('page-error');
    const detail =
      err instanceof ApiError && err.body && err.body.errors
        ? `${err.message}: ${err.body.errors.map((e) => `${e.field} ${e.message}`).join('; ')}`
        : err.message;
    if (box) box.textContent = detail;
    announce(detail);
  }

  function page(title, ...children) {
    return [
      h('h1', { tabindex: '-1', id: 'page-title' }, title),
      h('p', { id: 'page-error', class: 'error', role: 'alert' }),
      ...children,
    ];
  }

  function table(caption, headers, rows, empty = 'Nothing here yet.') {
    if (!rows.length) return h('p', { class: 'hint' }, empty);
    return scroll(
      'table',
      {},
      h('caption', {}, caption),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          headers.map((x) => h('th', { scope: 'col', class: x.num ? 'num' : null }, x.label || x)),
        ),
      ),
      h('tbody', {}, rows),
    );
  }

  /** A wide table scrolls inside its own box, not the page. */
  function scroll(...args) {
    return h('div', { class: 'scroll' }, h(...args));
  }

  // ---- charts (inline SVG; a table beside each for screen readers and exact figures) ---------

  /** Stacked bars, one a day: succeeded below, failed above. */
  function dailyChart(days) {
    const W = 720;
    const H = 200;
    const pad = { l: 40, b: 24, t: 10, r: 8 };
    const max = Math.max(1, ...days.map((d) => d.pages));
    const bw = (W - pad.l - pad.r) / days.length;
    const y = (v) => ((H - pad.t - pad.b) * v) / max;
    const total = days.reduce((n, d) => n + d.pages, 0);
    const svg = s(
      'svg',
      { viewBox: `0 0 ${W} ${H}`, class: 'chart', role: 'img', 'aria-labelledby': 'usage-chart-title' },
      s(
        'title',
        { id: 'usage-chart-title' },
        `Pages a day over the last ${days.length} days: ${num(total)} in all, at most ${num(max)} in a day.`,
      ),
      s('line', { class: 'axis', x1: pad.l, y1: H - pad.b, x2: W - pad.r, y2: H - pad.b }),
      s('text', { x: pad.l - 6, y: pad.t + 8, 'text-anchor': 'end' }, num(max)),
      s('text', { x: pad.l - 6, y: H - pad.b, 'text-anchor': 'end' }, '0'),
    );
    days.forEach((d, i) => {
      const x = pad.l + i * bw + 1;
      const ok = y(d.succeeded);
      const bad = y(d.pages - d.succeeded);
      const base = H - pad.b;
      svg.append(
        s(
          'rect',
          { class: 'ok', x, width: Math.max(1, bw - 2), y: base - ok, height: ok },
          s('title', {}, `${d.day}: ${d.succeeded} succeeded`),
        ),
        s(
          'rect',
          { class: 'bad', x, width: Math.max(1, bw - 2), y: base - ok - bad, height: bad },
          s('title', {}, `${d.day}: ${d.pages - d.succeeded} failed`),
        ),
      );
      if (i % 5 === 0 || i === days.length - 1) {
        svg.append(s('text', { x: x + bw / 2, y: H - 8, 'text-anchor': 'middle' }, d.day.slice(5)));
      }
    });
    return svg;
  }

  /** One horizontal bar a delivery status, over the deliveries listed. */
  function outcomeChart(counts) {
    const entries = Object.entries(counts);
    const max = Math.max(1, ...entries.map(([, n]) => n));
    const W = 480;
    const row = 26;
    const svg = s(
      'svg',
      {
        viewBox: `0 0 ${W} ${row * entries.length + 4}`,
        class: 'chart outcomes',
        role: 'img',
        'aria-labelledby': 'outcome-chart-title',
      },
      s(
        'title',
        { id: 'outcome-chart-title' },
        `Outcomes of the deliveries listed: ${entries.map(([k, n]) => `${n} ${k}`).join(', ')}.`,
      ),
    );
    entries.forEach(([k, n], i) => {
      const width = ((W - 150) * n) / max;
      svg.append(
        s('text', { x: 0, y: i * row + 17 }, k),
        s('rect', {
          class: k === 'failed' ? 'bad' : 'ok',
          x: 90,
          y: i * row + 5,
          width: Math.max(width, n ? 2 : 0),
          height: 16,
          opacity: k === 'pending' ? 0.5 : 1,
        }),
        s('text', { x: 96 + width, y: i * row + 17 }, num(n)),
      );
    });
    return svg;
  }

  // ---- customer pages ------------------------------------------------------------------------

  async function usagePage() {
    const [me, series] = await Promise.all([call('GET', '/v1/me'), call('GET', '/v1/usage?days=30')]);
    const { usage, user } = me;
    const used = usage.requests_this_month;
    const stat = (label, value, extra) =>
      h('div', { class: 'card' }, h('dl', { class: 'stat' }, h('dt', {}, label), h('dd', {}, value, extra)));
    const meterId = `f${++uid}`;
    return page(
      'Usage',
      h('p', { class: 'hint' }, `${session.env} environment · plan ${user.plan} · UTC days and months`),
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
        stat('Success rate this month', `${(usage.success_rate * 100).toFixed(1)} %`),
        stat('Average render time', `${num(usage.avg_response_ms)} ms`),
      ),
      h(
        'section',
        { class: 'card', 'aria-labelledby': 'chart-h' },
        h('h2', { id: 'chart-h' }, 'Pages a day, last 30 days'),
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
          table(
            'Pages a day',
            [
              'Day',
              { label: 'Pages', num: true },
              { label: 'Succeeded', num: true },
              { label: 'Failed', num: true },
            ],
            series.data.map((d) =>
              h(
                'tr',
                {},
                h('td', {}, d.day),
                h('td', { class: 'num' }, d.pages),
                h('td', { class: 'num' }, d.succeeded),
                h('td', { class: 'num' }, d.failed),
              ),
            ),
          ),
        ),
      ),
    );
  }

  /** The keys of an account: the customer's own environment, or any account's for an admin. */
  async function keysSection({ list, create, revoke, environments }) {
    const section = h('section', { class: 'card', 'aria-labelledby': 'keys-h' });
    const shown = h('div', { 'aria-live': 'polite' });
    async function refresh() {
      const keys = await list();
      const current = session.key ? [session.key.slice(0, 13), session.key.slice(-4)] : [];
      section.replaceChildren(
        h('h2', { id: 'keys-h' }, 'API keys'),
        table(
          'Keys (only the prefix and last 4 characters are ever shown again)',
          ['Name', 'Key', 'Environment', 'Created', 'Status', ''],
          keys.map((k) => {
            const mine = k.prefix === current[0] && k.last4 === current[1];
            const button = h(
              'button',
              { type: 'button', class: 'danger', 'aria-label': `Revoke key ${k.prefix}…${k.last4}` },
              'Revoke',
            );
            button.addEventListener('click', () => {
              const warning = mine
                ? 'This is the key this session signed in with. Revoke it anyway?'
                : `Revoke ${k.prefix}…${k.last4}? Anything using it stops working now.`;
              if (!confirm(warning)) return;
              act(button, () => revoke(k.id).then(refresh), `Key ${k.prefix}…${k.last4} revoked.`);
            });
            return h(
              'tr',
              {},
              h('td', {}, k.name || '—', mine ? ' (this session)' : ''),
              h('td', { class: 'mono' }, `${k.prefix}…${k.last4}`),
              h('td', {}, k.environment),
              h('td', { class: 'when' }, when(k.created_at)),
              h('td', {}, k.revoked_at ? badge('revoked') : badge('active')),
              h('td', {}, k.revoked_at ? '' : button),
            );
          }),
        ),
        createForm(),
        shown,
      );
    }
    function createForm() {
      const name = h('input', { type: 'text', maxlength: 64, autocomplete: 'off' });
      const env = environments
        ? select(
            'environment',
            environments.map((e) => [e, e]),
            environments[0],
          )
        : null;
      const button = h('button', { type: 'submit' }, 'Create key');
      const form = h(
        'form',
        { class: 'filters', 'aria-label': 'Create a key' },
        field('New key name (optional)', name),
        env && field('Environment', env),
        button,
      );
      form.addEventListener('submit', (e) => {
        e.preventDefault();
        act(
          button,
          async () => {
            const issued = await create({
              name: name.value || undefined,
              environment: env ? env.value : undefined,
            });
            await refresh();
            // Shown once: the API never returns it again.
            shown.replaceChildren(
              h(
                'div',
                { class: 'card once', role: 'region', 'aria-label': 'New key' },
                h('p', {}, h('strong', {}, 'Copy this key now: it is shown only once.')),
                h('code', { class: 'secret', 'data-testid': 'new-key' }, issued.key),
              ),
            );
          },
          'Key created. It is shown once, below the list.',
        );
      });
      return form;
    }
    await refresh();
    return section;
  }

  async function keysPage() {
    return page(
      'API keys',
      h(
        'p',
        { class: 'hint' },
        `Keys of the ${session.env} environment. A leaked key: create a new one, switch to it, revoke the old one.`,
      ),
      await keysSection({
        list: async () => (await call('GET', '/v1/keys')).data,
        create: ({ name }) => call('POST', '/v1/keys', { name }),
        revoke: (id) => call('DELETE', `/v1/keys/${id}`),
      }),
    );
  }

  async function webhooksPage() {
    const out = h('div', { 'aria-live': 'polite' });
    const showSecret = (s, note) =>
      out.replaceChildren(
        h('p', {}, note),
        h('code', { class: 'secret', 'data-testid': 'secret' }, s.secret),
        h(
          'dl',
          {},
          h('dt', {}, 'Created'),
          h('dd', {}, when(s.created_at)),
          h('dt', {}, 'Last rotated'),
          h('dd', {}, when(s.rotated_at)),
          h('dt', {}, 'Previous secret signs until'),
          h(
            'dd',
            { 'data-testid': 'previous-expires' },
            s.previous_expires_at ? when(s.previous_expires_at) : 'no previous secret signs',
          ),
        ),
        h(
          'button',
          { type: 'button', class: 'quiet', on: { click: () => out.replaceChildren(h('p', {}, 'Hidden.')) } },
          'Hide',
        ),
      );
    const reveal = h('button', { type: 'button' }, 'Reveal secret');
    reveal.addEventListener('click', () =>
      act(
        reveal,
        async () => showSecret(await call('GET', '/v1/webhooks/secret'), 'Current signing secret:'),
        'Secret revealed.',
      ),
    );
    const rotate = h('button', { type: 'button' }, 'Rotate secret');
    rotate.addEventListener('click', () => {
      if (!confirm('Make a new secret? The old one keeps signing for 24 hours.')) return;
      act(
        rotate,
        async () =>
          showSecret(
            await call('POST', '/v1/webhooks/secret/rotate'),
            'New secret (the old one also signs for 24 h):',
          ),
        'Secret rotated.',
      );
    });
    const expire = h('button', { type: 'button', class: 'danger' }, 'Rotate and expire the old secret now');
    expire.addEventListener('click', () => {
      if (!confirm('For a leaked secret: make a new one and stop signing with the old one at once?')) return;
      act(
        expire,
        async () =>
          showSecret(
            await call('POST', '/v1/webhooks/secret/rotate?expire_now=true'),
            'New secret (the old one no longer signs):',
          ),
        'Secret rotated; the old one stopped signing.',
      );
    });
    return page(
      'Settings › Webhooks',
      h(
        'section',
        { class: 'card', 'aria-labelledby': 'secret-h' },
        h('h2', { id: 'secret-h' }, 'Signing secret'),
        h(
          'p',
          { class: 'hint' },
          `Signs every webhook of the ${session.env} environment (Standard Webhooks). Shown only when you ask.`,
        ),
        h('div', { class: 'actions' }, reveal, rotate, expire),
        out,
      ),
      h(
        'p',
        {},
        h('a', { href: '#/deliveries' }, 'Delivery log'),
        ' · ',
        h('a', { href: '#/dead-letters' }, 'Dead letters'),
      ),
    );
  }

  // ---- deliveries and jobs: one page each for a customer (/v1) and an admin (/admin/v1) ------

  const base = () => (session.role === 'admin' ? '/admin/v1' : '/v1');
  const isAdmin = () => session.role === 'admin';

  async function deliveriesPage(query, dead) {
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
    const jobId = h('input', {
      type: 'text',
      value: filter.job_id,
      placeholder: 'job_…',
      autocomplete: 'off',
    });
    const account = h('input', {
      type: 'text',
      value: filter.account_id,
      placeholder: 'acc_…',
      autocomplete: 'off',
    });
    const apply = h('button', { type: 'submit' }, 'Filter');
    const form = h(
      'form',
      { class: 'filters', 'aria-label': 'Filter deliveries' },
      dead ? null : field('Status', status),
      field('Job id', jobId),
      isAdmin() ? field('Account id', account) : null,
      apply,
    );
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      const q = qs({
        status: dead ? undefined : status.value,
        job_id: jobId.value.trim(),
        account_id: isAdmin() ? account.value.trim() : undefined,
      });
      go(`${dead ? '#/dead-letters' : '#/deliveries'}${q}`);
    });

    const listQuery = { ...filter, account_id: isAdmin() ? filter.account_id : undefined };
    const first = await call('GET', `${base()}/webhooks/deliveries${qs({ ...listQuery, limit: 100 })}`);
    const rows = h('tbody');
    const counts = { succeeded: 0, failed: 0, pending: 0 };
    const addRows = (data) => {
      for (const d of data) {
        counts[d.status] += 1;
        const replay = h(
          'button',
          { type: 'button', class: 'quiet', 'aria-label': `Replay delivery ${d.id}` },
          'Replay',
        );
        replay.addEventListener('click', () =>
          act(
            replay,
            () =>
              call('POST', `${base()}/webhooks/deliveries/${d.id}/replay`).then(() =>
                go(`#/deliveries/${d.id}`),
              ),
            `Delivery ${d.id} replayed.`,
          ),
        );
        rows.append(
          h(
            'tr',
            { 'data-delivery': d.id },
            h('td', { class: 'mono' }, h('a', { href: `#/deliveries/${d.id}` }, d.id)),
            h('td', { class: 'mono' }, d.job_id),
            isAdmin()
              ? h('td', { class: 'mono' }, d.account_id, h('br'), h('small', {}, d.environment))
              : null,
            h('td', {}, badge(d.status)),
            h('td', { class: 'num' }, d.attempt_count),
            h('td', { class: 'num' }, d.last_status_code ?? '—'),
            h('td', { class: 'when' }, when(d.created_at)),
            h('td', {}, replay),
          ),
        );
      }
    };
    addRows(first.data);
    let next = first.next;
    const more = h('button', { type: 'button', class: 'quiet', hidden: !next }, 'Load more');
    more.addEventListener('click', () =>
      act(more, async () => {
        const res = await call(
          'GET',
          `${base()}/webhooks/deliveries${qs({ ...listQuery, limit: 100, cursor: next })}`,
        );
        addRows(res.data);
        next = res.next;
        more.hidden = !next;
      }),
    );

    const bulk = h(
      'button',
      { type: 'button', disabled: !first.data.length },
      dead ? 'Replay all dead letters' : 'Replay all matching',
    );
    bulk.addEventListener('click', () => {
      if (!confirm('Send every matching delivery again (new attempts, same webhook-id)?')) return;
      act(
        bulk,
        async () => {
          let replayed = 0;
          let cursor;
          do {
            const res = await call('POST', `${base()}/webhooks/deliveries/replay`, {
              ...Object.fromEntries(Object.entries(listQuery).filter(([, v]) => v)),
              ...(cursor ? { cursor } : {}),
            });
            replayed += res.replayed;
            cursor = res.next;
          } while (cursor);
          await render();
          return replayed;
        },
        (n) => `${n} deliveries replayed.`,
      );
    });

    const headers = [
      'Delivery',
      'Job',
      isAdmin() ? 'Account' : null,
      'Status',
      { label: 'Attempts', num: true },
      { label: 'Last code', num: true },
      'Created',
      '',
    ].filter(Boolean);
    return page(
      dead ? 'Dead letters' : 'Webhook deliveries',
      h(
        'p',
        { class: 'hint' },
        dead
          ? 'Deliveries whose every try failed. Fix the receiver, then replay them.'
          : isAdmin()
            ? 'Deliveries of every account, newest first.'
            : `Deliveries of the ${session.env} environment, newest first.`,
      ),
      form,
      first.data.length
        ? h(
            'section',
            { class: 'card', 'aria-labelledby': 'outcomes-h' },
            h('h2', { id: 'outcomes-h' }, 'Outcomes of the deliveries listed'),
            outcomeChart(counts),
          )
        : null,
      h('div', { class: 'actions' }, bulk),
      first.data.length
        ? scroll(
            'table',
            {},
            h('caption', {}, 'Deliveries'),
            h(
              'thead',
              {},
              h(
                'tr',
                {},
                headers.map((x) => h('th', { scope: 'col', class: x.num ? 'num' : null }, x.label || x)),
              ),
            ),
            rows,
          )
        : h('p', { class: 'hint' }, 'No deliveries match.'),
      more,
    );
  }

  async function deliveryPage(id) {
    const d = await call('GET', `${base()}/webhooks/deliveries/${id}`);
    const mine = generation;
    const replay = h('button', { type: 'button' }, 'Replay');
    replay.addEventListener('click', () =>
      act(
        replay,
        () => call('POST', `${base()}/webhooks/deliveries/${id}/replay`).then(render),
        'Replayed; new attempts appear below.',
      ),
    );
    // While tries are still due, look again: the page shows the delivery settle.
    if (d.status === 'pending') setTimeout(() => mine === generation && render(), 1000);
    const fields = [
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
    ].filter(Boolean);
    return page(
      `Delivery ${d.id}`,
      h('p', {}, h('a', { href: '#/deliveries' }, '← All deliveries')),
      h(
        'section',
        { class: 'card' },
        h(
          'dl',
          { class: 'grid' },
          fields.map(([k, v]) => h('div', {}, h('dt', {}, k), h('dd', { 'data-field': k.toLowerCase() }, v))),
        ),
        h('div', { class: 'actions' }, replay),
      ),
      h(
        'section',
        { class: 'card', 'aria-labelledby': 'attempts-h' },
        h('h2', { id: 'attempts-h' }, 'Attempts'),
        table(
          'Every try, oldest first',
          [
            { label: '#', num: true },
            'Started',
            'Kind',
            { label: 'Status code', num: true },
            { label: 'Latency', num: true },
            'Error',
            'Response',
          ],
          d.attempts.map((a) =>
            h(
              'tr',
              {},
              h('td', { class: 'num' }, a.attempt_no),
              h('td', { class: 'when' }, when(a.started_at)),
              h('td', {}, a.replay ? 'replay' : 'scheduled'),
              h('td', { class: 'num' }, a.status_code ?? '—'),
              h('td', { class: 'num' }, `${num(a.latency_ms)} ms`),
              h('td', {}, a.error || ''),
              h('td', { class: 'mono' }, a.response_excerpt || ''),
            ),
          ),
          'No attempt yet.',
        ),
      ),
      h(
        'section',
        { class: 'card', 'aria-labelledby': 'payload-h' },
        h('h2', { id: 'payload-h' }, 'Payload (sent on every attempt)'),
        h('pre', { tabindex: '0', 'aria-labelledby': 'payload-h' }, JSON.stringify(d.payload, null, 2)),
      ),
    );
  }

  async function jobsPage(query) {
    const filter = {
      status: query.get('status') || '',
      type: query.get('type') || '',
      account_id: query.get('account_id') || '',
    };
    const status = select(
      'status',
      [['', 'any'], ...['queued', 'running', 'completed', 'failed', 'cancelled'].map((x) => [x, x])],
      filter.status,
    );
    const type = select(
      'type',
      [
        ['', 'any'],
        ['scrape', 'scrape'],
        ['batch', 'batch'],
        ['crawl', 'crawl'],
      ],
      filter.type,
    );
    const account = h('input', {
      type: 'text',
      value: filter.account_id,
      placeholder: 'acc_…',
      autocomplete: 'off',
    });
    const form = h(
      'form',
      { class: 'filters', 'aria-label': 'Filter jobs' },
      field('Status', status),
      field('Type', type),
      isAdmin() ? field('Account id', account) : null,
      h('button', { type: 'submit' }, 'Filter'),
    );
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      go(
        `#/jobs${qs({ status: status.value, type: type.value, account_id: isAdmin() ? account.value.trim() : undefined })}`,
      );
    });
    const res = await call(
      'GET',
      `${base()}/jobs${qs({ ...filter, account_id: isAdmin() ? filter.account_id : undefined, limit: 100 })}`,
    );
    const mine = generation;
    // Running jobs move: refresh while any is queued or running and this page is still shown.
    if (res.data.some((j) => j.status === 'queued' || j.status === 'running'))
      setTimeout(() => mine === generation && render(), 2000);
    const rows = res.data.map((j) => {
      const done = j.completed + j.failed;
      const cancel = h(
        'button',
        { type: 'button', class: 'quiet', 'aria-label': `Cancel job ${j.job_id}` },
        'Cancel',
      );
      cancel.addEventListener(
        'click',
        () =>
          confirm(`Cancel ${j.job_id}?`) &&
          act(cancel, () => call('DELETE', `${base()}/jobs/${j.job_id}`).then(render), 'Job cancelled.'),
      );
      return h(
        'tr',
        {},
        h('td', { class: 'mono' }, j.job_id),
        isAdmin() ? h('td', { class: 'mono' }, j.account_id, h('br'), h('small', {}, j.environment)) : null,
        h('td', {}, j.type),
        h('td', {}, badge(j.status)),
        h(
          'td',
          {},
          h('progress', {
            max: Math.max(1, j.total),
            value: done,
            'aria-label': `${done} of ${j.total} pages done`,
          }),
          h('small', {}, `${num(done)} / ${num(j.total)}${j.failed ? ` (${num(j.failed)} failed)` : ''}`),
        ),
        h('td', { class: 'when' }, when(j.created_at)),
        h('td', { class: 'when' }, when(j.finished_at)),
        h('td', {}, j.status === 'queued' || j.status === 'running' ? cancel : ''),
      );
    });
    return page(
      'Jobs',
      form,
      table(
        'Jobs, newest first',
        ['Job', isAdmin() ? 'Account' : null, 'Type', 'Status', 'Progress', 'Created', 'Finished', ''].filter(
          Boolean,
        ),
        rows,
        'No jobs match.',
      ),
    );
  }

  // ---- admin pages ---------------------------------------------------------------------------

  async function plansOptions() {
    return (await call('GET', '/admin/v1/plans')).data.map((p) => [p.name, p.name]);
  }

  async function accountsPage(query) {
    const email = h('input', { type: 'search', value: query.get('email') || '', autocomplete: 'off' });
    const status = select(
      'status',
      [
        ['', 'any'],
        ['active', 'active'],
        ['suspended', 'suspended'],
      ],
      query.get('status') || '',
    );
    const search = h(
      'form',
      { class: 'filters', role: 'search', 'aria-label': 'Search accounts' },
      field('E-mail contains', email),
      field('Status', status),
      h('button', { type: 'submit' }, 'Search'),
    );
    search.addEventListener('submit', (e) => {
      e.preventDefault();
      go(`#/accounts${qs({ email: email.value.trim(), status: status.value })}`);
    });
    const [res, plans] = await Promise.all([
      call(
        'GET',
        `/admin/v1/accounts${qs({ email: query.get('email'), status: query.get('status'), limit: 100 })}`,
      ),
      plansOptions(),
    ]);

    const newEmail = h('input', { type: 'email', required: true, autocomplete: 'off' });
    const plan = select('plan', plans, 'free');
    const createBtn = h('button', { type: 'submit' }, 'Create account');
    const created = h('div', { 'aria-live': 'polite' });
    const create = h(
      'form',
      { class: 'filters', 'aria-label': 'Create an account' },
      field('E-mail', newEmail),
      field('Plan', plan),
      createBtn,
    );
    create.addEventListener('submit', (e) => {
      e.preventDefault();
      act(
        createBtn,
        async () => {
          const r = await call('POST', '/admin/v1/accounts', { email: newEmail.value, plan: plan.value });
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
    });

    return page(
      'Accounts',
      search,
      table(
        'Accounts, newest first',
        ['E-mail', 'Id', 'Plan', 'Status', 'Created'],
        res.data.map((a) =>
          h(
            'tr',
            {},
            h('td', {}, h('a', { href: `#/accounts/${a.id}` }, a.email)),
            h('td', { class: 'mono' }, a.id),
            h('td', {}, a.plan),
            h('td', {}, badge(a.status)),
            h('td', { class: 'when' }, when(a.created_at)),
          ),
        ),
        'No account matches.',
      ),
      h(
        'section',
        { class: 'card', 'aria-labelledby': 'new-account-h' },
        h('h2', { id: 'new-account-h' }, 'New account'),
        create,
        created,
      ),
    );
  }

  async function accountPage(id) {
    const [a, plans] = await Promise.all([call('GET', `/admin/v1/accounts/${id}`), plansOptions()]);
    const plan = select('plan', plans, a.plan);
    const savePlan = h('button', { type: 'submit' }, 'Change plan');
    const planForm = h(
      'form',
      { class: 'filters', 'aria-label': 'Change plan' },
      field('Plan', plan),
      savePlan,
    );
    planForm.addEventListener('submit', (e) => {
      e.preventDefault();
      act(
        savePlan,
        () => call('PATCH', `/admin/v1/accounts/${id}`, { plan: plan.value }).then(render),
        'Plan changed.',
      );
    });
    const suspended = a.status === 'suspended';
    const toggle = h(
      'button',
      { type: 'button', class: suspended ? null : 'danger' },
      suspended ? 'Reactivate' : 'Suspend',
    );
    toggle.addEventListener(
      'click',
      () =>
        (suspended || confirm('Suspend this account? Its keys stop working now.')) &&
        act(
          toggle,
          () =>
            call('PATCH', `/admin/v1/accounts/${id}`, { status: suspended ? 'active' : 'suspended' }).then(
              render,
            ),
          suspended ? 'Account reactivated.' : 'Account suspended.',
        ),
    );

    const env = select(
      'environment',
      [
        ['production', 'production'],
        ['sandbox', 'sandbox'],
      ],
      'production',
    );
    const expireNow = h('input', { type: 'checkbox' });
    const rotate = h('button', { type: 'submit' }, 'Rotate webhook secret');
    const rotated = h('p', { 'aria-live': 'polite' });
    const rotateForm = h(
      'form',
      { class: 'filters', 'aria-label': 'Rotate webhook secret' },
      field('Environment', env),
      h('div', {}, h('label', {}, expireNow, ' Expire the old secret now')),
      rotate,
    );
    rotateForm.addEventListener('submit', (e) => {
      e.preventDefault();
      act(
        rotate,
        async () => {
          const r = await call(
            'POST',
            `/admin/v1/accounts/${id}/webhooks/secret/rotate${qs({ environment: env.value, expire_now: expireNow.checked ? 'true' : undefined })}`,
          );
          rotated.textContent = `Rotated ${r.environment} at ${when(r.rotated_at)}; ${r.previous_expires_at ? `the old secret signs until ${when(r.previous_expires_at)}` : 'the old secret no longer signs'}. The customer reveals the new one in Settings › Webhooks.`;
        },
        'Secret rotated.',
      );
    });

    const usageRow = (e) => {
      const u = a.usage[e];
      return h(
        'tr',
        {},
        h('td', {}, e),
        h('td', { class: 'num' }, num(u.requests_this_month)),
        h('td', { class: 'num' }, num(u.requests_today)),
        h('td', { class: 'num' }, `${(u.success_rate * 100).toFixed(1)} %`),
        h('td', { class: 'num' }, `${num(u.avg_response_ms)} ms`),
      );
    };
    return page(
      a.email,
      h(
        'p',
        {},
        h('a', { href: '#/accounts' }, '← Accounts'),
        ' · ',
        h('a', { href: `#/jobs?account_id=${id}` }, 'Jobs'),
        ' · ',
        h('a', { href: `#/deliveries?account_id=${id}` }, 'Deliveries'),
        ' · ',
        h('a', { href: `#/dead-letters?account_id=${id}` }, 'Dead letters'),
      ),
      h(
        'section',
        { class: 'card' },
        h(
          'dl',
          { class: 'grid' },
          [
            ['Id', h('span', { class: 'mono' }, a.id)],
            ['Plan', a.plan],
            ['Status', badge(a.status)],
            ['Created', when(a.created_at)],
          ].map(([k, v]) => h('div', {}, h('dt', {}, k), h('dd', {}, v))),
        ),
        planForm,
        h('div', { class: 'actions' }, toggle),
      ),
      h(
        'section',
        { class: 'card', 'aria-labelledby': 'usage-h' },
        h('h2', { id: 'usage-h' }, 'Usage this month'),
        table(
          'Pages by environment',
          [
            'Environment',
            { label: 'This month', num: true },
            { label: 'Today', num: true },
            { label: 'Success', num: true },
            { label: 'Avg render', num: true },
          ],
          ['production', 'sandbox'].map(usageRow),
        ),
      ),
      await keysSection({
        list: async () => (await call('GET', `/admin/v1/accounts/${id}/keys`)).data,
        create: ({ name, environment }) =>
          call('POST', `/admin/v1/accounts/${id}/keys`, { name, environment }),
        revoke: (keyId) => call('DELETE', `/admin/v1/keys/${keyId}`),
        environments: ['production', 'sandbox'],
      }),
      h(
        'section',
        { class: 'card', 'aria-labelledby': 'wh-h' },
        h('h2', { id: 'wh-h' }, 'Webhook secret'),
        h('p', { class: 'hint' }, 'Admins rotate; only the account itself can reveal a secret.'),
        rotateForm,
        rotated,
      ),
    );
  }

  async function plansPage() {
    const plans = (await call('GET', '/admin/v1/plans')).data;
    const limitsForm = (label, values, onSubmit, withName) => {
      const inputs = {
        rate_per_minute: h('input', {
          type: 'number',
          min: 1,
          required: true,
          value: values.rate_per_minute ?? '',
        }),
        monthly_quota: h('input', {
          type: 'number',
          min: 0,
          required: true,
          value: values.monthly_quota ?? '',
        }),
        max_concurrent_pages: h('input', {
          type: 'number',
          min: 1,
          required: true,
          value: values.max_concurrent_pages ?? '',
        }),
      };
      const name = withName
        ? h('input', { type: 'text', required: true, pattern: '[a-z0-9][a-z0-9_-]{0,31}' })
        : null;
      const button = h('button', { type: 'submit' }, label);
      const form = h(
        'form',
        { class: 'filters', 'aria-label': label },
        name && field('Name', name),
        field('Requests a minute', inputs.rate_per_minute),
        field('Pages a month', inputs.monthly_quota),
        field('Concurrent pages', inputs.max_concurrent_pages),
        button,
      );
      form.addEventListener('submit', (e) => {
        e.preventDefault();
        const body = Object.fromEntries(Object.entries(inputs).map(([k, el]) => [k, Number(el.value)]));
        act(
          button,
          () => onSubmit(name ? { name: name.value, ...body } : body).then(render),
          `${label}: saved.`,
        );
      });
      return form;
    };
    return page(
      'Plans',
      h('p', { class: 'hint' }, 'A change applies to every account on the plan from its next request.'),
      plans.map((p) =>
        h(
          'section',
          { class: 'card', 'aria-label': `Plan ${p.name}` },
          h('h2', {}, p.name),
          limitsForm(`Save ${p.name}`, p, (body) => call('PATCH', `/admin/v1/plans/${p.name}`, body)),
        ),
      ),
      h(
        'section',
        { class: 'card', 'aria-labelledby': 'new-plan-h' },
        h('h2', { id: 'new-plan-h' }, 'New plan'),
        limitsForm('Create plan', {}, (body) => call('POST', '/admin/v1/plans', body), true),
      ),
    );
  }

  async function auditPage(query) {
    const f = {
      admin_id: query.get('admin_id') || '',
      action: query.get('action') || '',
      target: query.get('target') || '',
    };
    const inputs = Object.fromEntries(
      Object.entries(f).map(([k, v]) => [k, h('input', { type: 'text', value: v, autocomplete: 'off' })]),
    );
    const form = h(
      'form',
      { class: 'filters', 'aria-label': 'Filter the audit log' },
      field('Admin id', inputs.admin_id),
      field('Action', inputs.action),
      field('Target', inputs.target),
      h('button', { type: 'submit' }, 'Filter'),
    );
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      go(`#/audit${qs(Object.fromEntries(Object.entries(inputs).map(([k, el]) => [k, el.value.trim()])))}`);
    });
    const res = await call('GET', `/admin/v1/audit${qs({ ...f, limit: 100 })}`);
    return page(
      'Audit log',
      h(
        'p',
        { class: 'hint' },
        'Every admin write: who, what, on which target, when. "bootstrap" is the ADMIN_TOKEN.',
      ),
      form,
      table(
        'Admin actions, newest first',
        ['When', 'Admin', 'Action', 'Target', 'Details'],
        res.data.map((e) =>
          h(
            'tr',
            {},
            h('td', { class: 'when' }, when(e.created_at)),
            h('td', { class: 'mono' }, e.admin_id),
            h('td', {}, e.action),
            h('td', { class: 'mono' }, e.target || '—'),
            h('td', { class: 'mono' }, e.details ? JSON.stringify(e.details) : ''),
          ),
        ),
        'No entries match.',
      ),
    );
  }

  // ---- routing, sign-in ----------------------------------------------------------------------

  const ROUTES = {
    customer: [
      ['usage', 'Usage', usagePage],
      ['keys', 'API keys', keysPage],
      ['webhooks', 'Settings › Webhooks', webhooksPage],
      ['deliveries', 'Deliveries', (q, id) => (id ? deliveryPage(id) : deliveriesPage(q, false))],
      ['dead-letters', 'Dead letters', (q) => deliveriesPage(q, true)],
      ['jobs', 'Jobs', jobsPage],
    ],
    admin: [
      ['accounts', 'Accounts', (q, id) => (id ? accountPage(id) : accountsPage(q))],
      ['jobs', 'Jobs', jobsPage],
      ['deliveries', 'Deliveries', (q, id) => (id ? deliveryPage(id) : deliveriesPage(q, false))],
      ['dead-letters', 'Dead letters', (q) => deliveriesPage(q, true)],
      ['plans', 'Plans', plansPage],
      ['audit', 'Audit log', auditPage],
    ],
  };

  function go(hash) {
    if (location.hash === hash) render();
    else location.hash = hash;
  }

  function parseHash() {
    const [path, search] = location.hash.replace(/^#\/?/, '').split('?');
    const [name, id] = path.split('/');
    return { name, id: id ? decodeURIComponent(id) : undefined, query: new URLSearchParams(search || '') };
  }

  async function render() {
    const mine = ++generation;
    const view = document.getElementById('view');
    const routes = ROUTES[session.role];
    const { name, id, query } = parseHash();
    const route = routes.find(([n]) => n === name) || routes[0];
    const nav = document.getElementById('nav');
    nav.replaceChildren(
      h(
        'ul',
        {},
        routes.map(([n, label]) =>
          h('li', {}, h('a', { href: `#/${n}`, 'aria-current': n === route[0] ? 'page' : null }, label)),
        ),
      ),
    );
    document.title = `${route[1]} · Scraper dashboard`;
    view.setAttribute('aria-busy', 'true');
    let content;
    try {
      content = await route[2](query, id);
    } catch (err) {
      content = page(route[1]);
      if (mine === generation) setTimeout(() => showError(err));
    }
    if (mine !== generation || !session.role) return;
    view.replaceChildren(...content.flat(Infinity).filter(Boolean));
    view.removeAttribute('aria-busy');
    // Move focus to the new page's heading only when the page changed, not on a refresh.
    if (view.dataset.shown !== location.hash) {
      view.dataset.shown = location.hash;
      document.getElementById('page-title').focus();
    }
  }

  async function signIn(key) {
    session.key = key;
    try {
      if (/^osk_(live|test)_/.test(key)) {
        const me = await call('GET', '/v1/me');
        session.env = key.startsWith('osk_live_') ? 'production' : 'sandbox';
        session.role = 'customer';
        document.getElementById('who').textContent = `${me.user.email} · ${me.user.plan} · ${session.env}`;
      } else {
        const who = await call('GET', '/admin/v1/whoami');
        session.role = 'admin';
        document.getElementById('who').textContent = `Admin: ${who.email || 'bootstrap token'}`;
      }
    } catch (err) {
      session.key = null;
      sessionStorage.removeItem(STORE);
      throw err;
    }
    sessionStorage.setItem(STORE, key);
    document.getElementById('signin').hidden = true;
    document.getElementById('signout').hidden = false;
    const known = ROUTES[session.role].some(([n]) => n === parseHash().name);
    if (!known) history.replaceState(null, '', `#/${ROUTES[session.role][0][0]}`);
    await render();
  }

  function signOut(message) {
    sessionStorage.removeItem(STORE);
    Object.assign(session, { key: null, role: null, env: null });
    generation++;
    document.getElementById('view').replaceChildren();
    document.getElementById('nav').replaceChildren();
    document.getElementById('who').textContent = '';
    document.getElementById('signout').hidden = true;
    document.getElementById('signin').hidden = false;
    document.getElementById('signin-error').textContent = message || '';
    document.getElementById('signin-key').value = '';
    document.getElementById('signin-key').focus();
  }

  document.addEventListener('DOMContentLoaded', () => {
    const form = document.getElementById('signin-form');
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      const input = document.getElementById('signin-key');
      const error = document.getElementById('signin-error');
      error.textContent = '';
      const key = input.value.trim();
      if (!key) {
        error.textContent = 'Enter a key.';
        return;
      }
      try {
        await signIn(key);
        input.value = '';
      } catch (err) {
        error.textContent =
          err instanceof ApiError && err.status === 401
            ? 'That key was not accepted.'
            : `Could not sign in: ${err.message}`;
      }
    });
    document.getElementById('signout').addEventListener('click', () => signOut('Signed out.'));
    window.addEventListener('hashchange', () => session.role && render());
    if (session.key) signIn(session.key).catch(() => signOut('Sign in again.'));
    else signOut();
  });
})();
