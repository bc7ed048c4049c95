// Playground: one sync scrape (POST /v1/scrape) from a form, run with the signed-in key or another
// key of the account (the other environment's), its page result shown, and the same request as
// curl and JavaScript to copy.
import { call, environmentOf, session } from '../core/api.js';
import { announce, h } from '../core/dom.js';
import { actionForm, card, field, hint, page, select, textInput } from '../core/ui.js';
import { KEY_VARIABLE, curlSnippet, fetchSnippet, scrapeBody } from './playground-request.js';
import { resultView } from './playground-result.js';

const FORMATS = ['markdown', 'html', 'raw_html', 'text', 'links', 'screenshot'];
const DEFAULT_FORMATS = ['markdown', 'screenshot'];

/** Copies the snippet in `source`; where the clipboard is out of reach, selects it for Ctrl+C. */
async function copy(source, what) {
  try {
    await navigator.clipboard.writeText(source.textContent);
    announce(`${what} copied.`);
  } catch {
    getSelection().selectAllChildren(source);
    announce(`${what} selected: press Ctrl+C to copy it.`);
  }
}

function snippet(title, testId) {
  const code = h('pre', { tabindex: '0', 'aria-label': title, 'data-testid': testId });
  const button = h(
    'button',
    { type: 'button', class: 'quiet', on: { click: () => copy(code, title) } },
    `Copy ${title}`,
  );
  return {
    code,
    view: h('div', { class: 'snippet' }, h('div', { class: 'actions' }, h('h3', {}, title), button), code),
  };
}

/** The key choice: the signed-in key, or another one pasted here (kept in this page only). */
function keyChoice() {
  const mine = `${session.key.slice(0, 13)}…${session.key.slice(-4)}`;
  const which = select(
    'key',
    [
      ['session', `Signed-in key (${session.env}, ${mine})`],
      ['other', 'Another key of this account'],
    ],
    'session',
  );
  const other = h('input', { type: 'password', autocomplete: 'off', spellcheck: 'false' });
  const otherField = field('Other key (osk_live_ or osk_test_; never stored)', other);
  otherField.hidden = true;
  which.addEventListener('change', () => (otherField.hidden = which.value !== 'other'));
  return {
    controls: [field('Run with', which), otherField],
    /** The key to send and its environment; throws when the other key is not a customer key. */
    chosen() {
      if (which.value === 'session') return { key: session.key, env: session.env };
      const key = other.value.trim();
      const env = environmentOf(key);
      if (!env) throw new Error('The other key must start with osk_live_ or osk_test_.');
      return { key, env };
    },
  };
}

export function playgroundPage() {
  const url = h('input', {
    type: 'url',
    placeholder: 'https://example.com/',
    autocomplete: 'off',
    required: true,
  });
  const formats = FORMATS.map((f) =>
    h('input', { type: 'checkbox', value: f, checked: DEFAULT_FORMATS.includes(f) }),
  );
  const render = select(
    'render',
    ['auto', 'browser', 'http'].map((v) => [v, v]),
    'auto',
  );
  const engine = select(
    'engine',
    ['playwright', 'puppeteer'].map((v) => [v, v]),
    'playwright',
  );
  const onlyMain = h('input', { type: 'checkbox', checked: true });
  const waitFor = textInput('', { placeholder: '#content or 1500', spellcheck: 'false' });
  const actions = h('textarea', {
    rows: 4,
    spellcheck: 'false',
    placeholder: '[{"type": "click", "selector": "#more"}]',
  });
  const keys = keyChoice();
  const values = () => ({
    url: url.value,
    formats: formats.filter((b) => b.checked).map((b) => b.value),
    onlyMainContent: onlyMain.checked,
    render: render.value,
    engine: engine.value,
    waitFor: waitFor.value,
    actions: actions.value,
  });

  const curl = snippet('curl', 'curl');
  const js = snippet('JavaScript', 'javascript');
  const keyHint = h('p', { class: 'hint' });
  /** The snippets follow the form as it is edited, so what they show is what Run sends. */
  function showRequest() {
    let env = session.env;
    try {
      env = keys.chosen().env;
    } catch {
      // The other key is not typed in yet: the snippets name the session's environment meanwhile.
    }
    keyHint.textContent = `Both read the key from $${KEY_VARIABLE}: set it to your ${env} key (${env === 'production' ? 'osk_live_' : 'osk_test_'}…) first. The key is never written here.`;
    try {
      const body = scrapeBody(values());
      curl.code.textContent = curlSnippet(location.origin, body);
      js.code.textContent = fetchSnippet(location.origin, body);
    } catch (err) {
      curl.code.textContent = js.code.textContent = `(${err.message})`;
    }
  }

  // Not a live region: the outcome is announced in a line (act()), not the whole result read out.
  const result = h('div', { class: 'playground-result', 'data-testid': 'playground-result' });
  async function run() {
    document.getElementById('page-error').textContent = '';
    // Both throw before anything is sent: the error shows on the page.
    const body = scrapeBody(values());
    const { key, env } = keys.chosen();
    result.replaceChildren(hint(`Scraping ${body.url} in ${env}…`));
    const started = performance.now();
    try {
      const r = await call('POST', '/v1/scrape', body, key);
      const wall = Math.round(performance.now() - started);
      result.replaceChildren(...[resultView(r, wall, env)].flat(Infinity).filter(Boolean));
      return r;
    } catch (err) {
      result.replaceChildren();
      throw err;
    }
  }

  const wide = (el) => Object.assign(el, { className: 'wide' });
  const form = actionForm(
    'Scrape a page',
    [
      wide(field('URL', url)),
      h(
        'fieldset',
        { class: 'wide' },
        h('legend', {}, 'Formats'),
        formats.map((box) => h('label', { class: 'check' }, box, ` ${box.value}`)),
      ),
      field('Render', render),
      field('Browser engine', engine),
      field('Wait for (selector or ms)', waitFor),
      h('div', {}, h('label', { class: 'check' }, onlyMain, ' Only main content')),
      wide(field('Actions (JSON array, optional)', actions)),
      keys.controls,
    ],
    'Run',
    run,
    (r) => (r.error ? `Scraped, with an error: ${r.error.code}.` : 'Scraped.'),
  );
  form.classList.add('playground');
  form.addEventListener('input', showRequest);
  form.addEventListener('change', showRequest);
  showRequest();

  return page(
    'Playground',
    hint(
      "Scrape one page as POST /v1/scrape does (it counts against the quota of the key's environment), " +
        'then copy the same request as curl or JavaScript.',
    ),
    card('Request', form),
    card('The same request in code', keyHint, h('div', { class: 'snippets' }, curl.view, js.view)),
    result,
  );
}
