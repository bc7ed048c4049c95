// The dashboard: browser ES modules, no build step (core/ holds what the screens share, screens/ a
// module per screen). This one maps the screens to routes and signs in and out.
import { ApiError, call, environmentOf, forgetKey, keepKey, session, whenRefused } from './core/api.js';
import { render, start, stop, useRoutes } from './core/router.js';
import { accountPage } from './screens/account.js';
import { accountsPage } from './screens/accounts.js';
import { auditPage } from './screens/audit.js';
import { deliveriesPage } from './screens/deliveries.js';
import { deliveryPage } from './screens/delivery.js';
import { jobPage } from './screens/job.js';
import { jobsPage } from './screens/jobs.js';
import { keysPage } from './screens/keys.js';
import { plansPage } from './screens/plans.js';
import { playgroundPage } from './screens/playground.js';
import { usagePage } from './screens/usage.js';
import { webhooksPage } from './screens/webhooks.js';

const deliveries = [
  'deliveries',
  'Deliveries',
  (q, id) => (id ? deliveryPage(id) : deliveriesPage(q, false)),
];
const deadLetters = ['dead-letters', 'Dead letters', (q) => deliveriesPage(q, true)];
const jobs = ['jobs', 'Jobs', (q, id) => (id ? jobPage(id, q) : jobsPage(q))];

useRoutes({
  customer: [
    ['usage', 'Usage', usagePage],
    ['playground', 'Playground', playgroundPage],
    ['keys', 'API keys', keysPage],
    ['webhooks', 'Settings › Webhooks', webhooksPage],
    deliveries,
    deadLetters,
    jobs,
  ],
  admin: [
    ['accounts', 'Accounts', (q, id) => (id ? accountPage(id) : accountsPage(q))],
    jobs,
    deliveries,
    deadLetters,
    ['plans', 'Plans', plansPage],
    ['audit', 'Audit log', auditPage],
  ],
});

const byId = (id) => document.getElementById(id);

async function signIn(key) {
  session.key = key;
  try {
    if (environmentOf(key)) {
      const me = await call('GET', '/v1/me');
      session.env = environmentOf(key);
      session.role = 'customer';
      byId('who').textContent = `${me.user.email} · ${me.user.plan} · ${session.env}`;
    } else {
      const who = await call('GET', '/admin/v1/whoami');
      session.role = 'admin';
      byId('who').textContent = `Admin: ${who.email || 'bootstrap token'}`;
    }
  } catch (err) {
    forgetKey();
    throw err;
  }
  keepKey(key);
  byId('signin').hidden = true;
  byId('signout').hidden = false;
  await start();
}

function signOut(message) {
  forgetKey();
  stop();
  byId('who').textContent = '';
  byId('signout').hidden = true;
  byId('signin').hidden = false;
  byId('signin-error').textContent = message || '';
  byId('signin-key').value = '';
  byId('signin-key').focus();
}

whenRefused(() => signOut('The key was refused (revoked, or the account suspended). Sign in again.'));

// A module runs once the document is parsed: the elements below exist.
byId('signin-form').addEventListener('submit', async (e) => {
  e.preventDefault();
  const input = byId('signin-key');
  const error = byId('signin-error');
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
byId('signout').addEventListener('click', () => signOut('Signed out.'));
window.addEventListener('hashchange', () => session.role && render());
if (session.key) signIn(session.key).catch(() => signOut('Sign in again.'));
else signOut();
