// Hash routing (#/deliveries/msg_…?status=failed): page names, ids and filters only, never the key.
import { session } from './api.js';
import { h } from './dom.js';
import { page, showError } from './ui.js';

/** By role, the screens as [name, label, screen(query, id)]; the first is where a role lands. */
let routes = { customer: [], admin: [] };
/** Bumped on every navigation so a page's timers and late answers know they are stale. */
let generation = 0;

export function useRoutes(byRole) {
  routes = byRole;
}

function parseHash() {
  const [path, search] = location.hash.replace(/^#\/?/, '').split('?');
  const [name, id] = path.split('/');
  return { name, id: id ? decodeURIComponent(id) : undefined, query: new URLSearchParams(search || '') };
}

export function go(hash) {
  if (location.hash === hash) render();
  else location.hash = hash;
}

/** Shows the current page again after `ms`, unless another page was shown meanwhile. */
export function refreshLater(ms) {
  const mine = generation;
  setTimeout(() => mine === generation && render(), ms);
}

/** A filter form: its submit goes to the hash `target()` builds, so a filtered page can be linked. */
export function filterForm(label, controls, buttonLabel, target, attrs) {
  const form = h(
    'form',
    { class: 'filters', 'aria-label': label, ...attrs },
    controls,
    h('button', { type: 'submit' }, buttonLabel),
  );
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    go(target());
  });
  return form;
}

/** After sign-in: the page the hash names if the role has it, else the role's first page. */
export function start() {
  const mine = routes[session.role];
  if (!mine.some(([n]) => n === parseHash().name)) history.replaceState(null, '', `#/${mine[0][0]}`);
  return render();
}

/** After sign-out: late answers and timers of the page shown are dropped. */
export function stop() {
  generation++;
  document.getElementById('view').replaceChildren();
  document.getElementById('nav').replaceChildren();
}

export async function render() {
  const mine = ++generation;
  const view = document.getElementById('view');
  const list = routes[session.role];
  const { name, id, query } = parseHash();
  const route = list.find(([n]) => n === name) || list[0];
  document.getElementById('nav').replaceChildren(
    h(
      'ul',
      {},
      list.map(([n, label]) =>
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
