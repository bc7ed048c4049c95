// The pieces every screen is made of: the page frame, its error line, tables, cards, controls and
// buttons that run an API call.
import { ApiError } from './api.js';
import { announce, h, nextId, when } from './dom.js';

/** A screen's content: its heading (focused on arrival) and the line its errors are shown in. */
export function page(title, ...children) {
  return [
    h('h1', { tabindex: '-1', id: 'page-title' }, title),
    h('p', { id: 'page-error', class: 'error', role: 'alert' }),
    ...children,
  ];
}

export function showError(err) {
  const box = document.getElementById('page-error');
  const detail =
    err instanceof ApiError && err.body && err.body.errors
      ? `${err.message}: ${err.body.errors.map((e) => `${e.field} ${e.message}`).join('; ')}`
      : err.message;
  if (box) box.textContent = detail;
  announce(detail);
}

/** Runs an action from a button: disables it meanwhile, reports the outcome politely. */
export async function act(button, fn, done) {
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

/**
 * A button that runs `fn` through act(); with `ask`, only once the user confirms it. `attrs` may
 * set class, aria-label, hidden or disabled.
 */
export function actionButton(label, attrs, fn, done, ask) {
  const button = h('button', { type: 'button', ...attrs }, label);
  button.addEventListener('click', () => {
    if (ask && !confirm(ask)) return;
    act(button, fn, done);
  });
  return button;
}

export const hint = (...text) => h('p', { class: 'hint' }, ...text);

/** A card with a heading that names it. */
export function card(title, ...children) {
  const id = nextId();
  return h('section', { class: 'card', 'aria-labelledby': id }, h('h2', { id }, title), ...children);
}

/** A paragraph of links, ` · ` between them: [[href, text], ...]. */
export function links(pairs) {
  return h(
    'p',
    {},
    pairs.map(([href, text], i) => [i ? ' · ' : null, h('a', { href }, text)]),
  );
}

/** A grid of named values: [[name, value], ...]; each value is findable by data-field. */
export function facts(pairs) {
  return h(
    'dl',
    { class: 'grid' },
    pairs
      .filter(Boolean)
      .map(([k, v]) => h('div', {}, h('dt', {}, k), h('dd', { 'data-field': k.toLowerCase() }, v))),
  );
}

/**
 * A table of `items`, a row each, or `empty` when there is none. A column is { label, cell(item),
 * class }: class 'num' right-aligns its header too. A falsy column (one this role lacks) is left out.
 */
export function table(caption, columns, items, empty = 'Nothing here yet.') {
  if (!items.length) return hint(empty);
  return grid(
    caption,
    columns,
    h(
      'tbody',
      {},
      items.map((item) => row(columns, item)),
    ),
  );
}

/** One item's row of a table's columns. */
export const row = (columns, item, attrs) =>
  h(
    'tr',
    attrs,
    columns.filter(Boolean).map((c) => h('td', { class: c.class || null }, c.cell(item))),
  );

/** A table around a body the caller fills (and may add to). It scrolls in its own box, not the page. */
export function grid(caption, columns, tbody) {
  return h(
    'div',
    { class: 'scroll' },
    h(
      'table',
      {},
      h('caption', {}, caption),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          columns
            .filter(Boolean)
            .map((c) => h('th', { scope: 'col', class: c.class === 'num' ? 'num' : null }, c.label)),
        ),
      ),
      tbody,
    ),
  );
}

/** The account and environment of an item, as the admin view lists them. */
export const accountColumn = {
  label: 'Account',
  class: 'mono',
  cell: (x) => [x.account_id, h('br'), h('small', {}, x.environment)],
};

/** A column of an item's time (`key`, an ISO string). */
export const whenColumn = (label, key) => ({ label, class: 'when', cell: (x) => when(x[key]) });

/** A labelled form control: the label is tied to the control by id. */
export function field(label, control) {
  control.id = control.id || nextId();
  return h('div', {}, h('label', { for: control.id }, label), control);
}

/** A select of [value, text] options. */
export function select(name, options, value) {
  return h(
    'select',
    { name },
    options.map(([v, text]) => h('option', { value: v, selected: v === value }, text)),
  );
}

/** A select whose texts are its values, with an 'any' choice first (value ''). */
export const anyOf = (name, values, value) =>
  select(name, [['', 'any'], ...values.map((v) => [v, v])], value);

/** A text input that the browser does not fill in from memory. */
export const textInput = (value, attrs) =>
  h('input', { type: 'text', value: value || '', autocomplete: 'off', ...attrs });

/** A form of controls in a row; its submit button runs `fn` through act(). */
export function actionForm(label, controls, buttonLabel, fn, done) {
  const button = h('button', { type: 'submit' }, buttonLabel);
  const form = h('form', { class: 'filters', 'aria-label': label }, controls, button);
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    act(button, fn, done);
  });
  return form;
}
