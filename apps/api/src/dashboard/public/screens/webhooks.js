// Settings › Webhooks: the signing secret of the signed-in environment, shown only when asked.
import { call, session } from '../core/api.js';
import { h, when } from '../core/dom.js';
import { actionButton, card, hint, links, page } from '../core/ui.js';

export async function webhooksPage() {
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
  const reveal = actionButton(
    'Reveal secret',
    {},
    async () => showSecret(await call('GET', '/v1/webhooks/secret'), 'Current signing secret:'),
    'Secret revealed.',
  );
  const rotate = actionButton(
    'Rotate secret',
    {},
    async () =>
      showSecret(
        await call('POST', '/v1/webhooks/secret/rotate'),
        'New secret (the old one also signs for 24 h):',
      ),
    'Secret rotated.',
    'Make a new secret? The old one keeps signing for 24 hours.',
  );
  const expire = actionButton(
    'Rotate and expire the old secret now',
    { class: 'danger' },
    async () =>
      showSecret(
        await call('POST', '/v1/webhooks/secret/rotate?expire_now=true'),
        'New secret (the old one no longer signs):',
      ),
    'Secret rotated; the old one stopped signing.',
    'For a leaked secret: make a new one and stop signing with the old one at once?',
  );
  return page(
    'Settings › Webhooks',
    card(
      'Signing secret',
      hint(
        `Signs every webhook of the ${session.env} environment (Standard Webhooks). Shown only when you ask.`,
      ),
      h('div', { class: 'actions' }, reveal, rotate, expire),
      out,
    ),
    links([
      ['#/deliveries', 'Delivery log'],
      ['#/dead-letters', 'Dead letters'],
    ]),
  );
}
