// The playground's request: the JSON body its form describes, and that same body as a curl command
// and a JavaScript snippet to copy. The key never goes into them: a variable's name stands in, so a
// copied snippet or a screenshot of the page leaks nothing.

/** The environment variable the snippets read the key from. */
export const KEY_VARIABLE = 'SCRAPER_API_KEY';

/**
 * The body of POST /v1/scrape for the form's values; throws an Error saying what is wrong (the API
 * checks the rest and answers 400 naming the field).
 */
export function scrapeBody({ url, formats, onlyMainContent, render, engine, waitFor, actions }) {
  if (!url.trim()) throw new Error('Enter a URL.');
  if (!formats.length) throw new Error('Pick at least one format.');
  const body = { url: url.trim(), formats, only_main_content: onlyMainContent, render };
  // Without a browser the engine means nothing.
  if (render !== 'http') body.engine = engine;
  const wait = waitFor.trim();
  // Digits only: milliseconds; anything else: a CSS selector.
  if (wait) body.wait_for = /^\d+$/.test(wait) ? Number(wait) : wait;
  if (actions.trim()) {
    let parsed;
    try {
      parsed = JSON.parse(actions);
    } catch (err) {
      throw new Error(`Actions are not valid JSON: ${err.message}`);
    }
    if (!Array.isArray(parsed))
      throw new Error('Actions must be a JSON array, e.g. [{"type": "wait", "ms": 500}].');
    body.actions = parsed;
  }
  return body;
}

/** A shell word: single-quoted, its own single quotes closed, escaped and reopened. */
const shellWord = (s) => `'${s.replaceAll("'", `'\\''`)}'`;

export function curlSnippet(origin, body) {
  return [
    `curl -sS -X POST ${shellWord(`${origin}/v1/scrape`)} \\`,
    `  -H "Authorization: Bearer $${KEY_VARIABLE}" \\`,
    `  -H 'Content-Type: application/json' \\`,
    `  --data ${shellWord(JSON.stringify(body, null, 2))}`,
  ].join('\n');
}

/** Node 18+ or a browser module: JSON is a JavaScript expression, so the body goes in as it is. */
export function fetchSnippet(origin, body) {
  return [
    `const res = await fetch(${JSON.stringify(`${origin}/v1/scrape`)}, {`,
    `  method: 'POST',`,
    `  headers: {`,
    `    Authorization: \`Bearer \${process.env.${KEY_VARIABLE}}\`,`,
    `    'Content-Type': 'application/json',`,
    `  },`,
    `  body: JSON.stringify(${JSON.stringify(body, null, 2).replaceAll('\n', '\n  ')}),`,
    `});`,
    `const page = await res.json();`,
    `console.log(page.markdown ?? page);`,
  ].join('\n');
}
