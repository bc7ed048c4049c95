// API keys: the customer's own environment, or any account's for an admin (screens/account.js).
import { call, session } from '../core/api.js';
import { badge, h } from '../core/dom.js';
import { actionButton, actionForm, card, field, hint, page, select, table, whenColumn } from '../core/ui.js';

/** The keys of an account with create and revoke, through the calls the caller passes. */
export async function keysSection({ list, create, revoke, environments }) {
  const listed = h('div');
  const shown = h('div', { 'aria-live': 'polite' });

  const label = (k) => `${k.prefix}…${k.last4}`;
  // The key this session signed in with, by the same prefix and last 4 the list shows.
  const mine = (k) =>
    !!session.key && k.prefix === session.key.slice(0, 13) && k.last4 === session.key.slice(-4);
  const revokeButton = (k) =>
    actionButton(
      'Revoke',
      { class: 'danger', 'aria-label': `Revoke key ${label(k)}` },
      () => revoke(k.id).then(refresh),
      `Key ${label(k)} revoked.`,
      mine(k)
        ? 'This is the key this session signed in with. Revoke it anyway?'
        : `Revoke ${label(k)}? Anything using it stops working now.`,
    );
  const columns = [
    { label: 'Name', cell: (k) => [k.name || '—', mine(k) ? ' (this session)' : ''] },
    { label: 'Key', class: 'mono', cell: label },
    { label: 'Environment', cell: (k) => k.environment },
    whenColumn('Created', 'created_at'),
    { label: 'Status', cell: (k) => badge(k.revoked_at ? 'revoked' : 'active') },
    { label: '', cell: (k) => (k.revoked_at ? '' : revokeButton(k)) },
  ];

  function createForm() {
    const name = h('input', { type: 'text', maxlength: 64, autocomplete: 'off' });
    const env = environments
      ? select(
          'environment',
          environments.map((e) => [e, e]),
          environments[0],
        )
      : null;
    return actionForm(
      'Create a key',
      [field('New key name (optional)', name), env && field('Environment', env)],
      'Create key',
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
  }

  async function refresh() {
    listed.replaceChildren(
      table('Keys (only the prefix and last 4 characters are ever shown again)', columns, await list()),
      createForm(),
    );
  }

  await refresh();
  return card('API keys', listed, shown);
}

export async function keysPage() {
  return page(
    'API keys',
    hint(
      `Keys of the ${session.env} environment. A leaked key: create a new one, switch to it, revoke the old one.`,
    ),
    await keysSection({
      list: async () => (await call('GET', '/v1/keys')).data,
      create: ({ name }) => call('POST', '/v1/keys', { name }),
      revoke: (id) => call('DELETE', `/v1/keys/${id}`),
    }),
  );
}
