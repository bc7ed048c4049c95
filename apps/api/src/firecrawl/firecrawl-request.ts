import { InvalidRequestError } from '@app/common';

/**
 * Firecrawl request bodies (v1 and v2, as @mendable/firecrawl-js 4.x sends them) onto ours
 * (docs/firecrawl.md). Pure: the result is our request body, validated by our DTOs afterwards, so a
 * mapped value is judged by the same rules as one sent to /v1. Every field of theirs is mapped,
 * knowingly without effect (listed in NO_EFFECT and in the docs), or refused with a reason: none is
 * dropped unseen, and a field neither of them knows is refused as Firecrawl refuses it.
 */
export type Body = Record<string, unknown>;

const refuse = (field: string, why: string) => InvalidRequestError.field(field, why);
const LLM = 'needs an LLM, which this server does not run';

/** Fields accepted without effect: hints about their cloud's cache, billing, concurrency or parsing. */
const NO_EFFECT = new Set([
  'origin',
  'integration',
  // Their index of earlier results (maxAge is our result cache's max_age).
  'minAge',
  'storeInCache',
  'removeBase64Images',
  'blockAds',
  'fastMode',
  'parsePDF',
  'parsers',
  'maxConcurrency',
  'deduplicateSimilarURLs',
  // Our crawl scope is the start URL's whole host, whatever these say (docs/firecrawl.md).
  'crawlEntireDomain',
  'allowBackwardLinks',
]);

type FieldMap = Record<string, (value: unknown, out: Body, field: string) => void>;

const rename =
  (ours: string) =>
  (value: unknown, out: Body): void => {
    out[ours] = value;
  };
const refusedWhen =
  (bad: (v: unknown) => boolean, why: string) =>
  (value: unknown, _out: Body, field: string): void => {
    if (bad(value)) throw refuse(field, why);
  };
const always = (why: string) => refusedWhen(() => true, why);
const isTrue = (v: unknown) => v === true;
const present = (v: unknown) => v !== undefined && v !== null;

/** Walks `body` through `fields`; `prefix` names nested fields (`scrapeOptions.`) in refusals. */
function mapFields(body: unknown, fields: FieldMap, prefix: string, out: Body = {}): Body {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new InvalidRequestError(`${prefix ? prefix.slice(0, -1) : 'The body'} must be a JSON object`);
  }
  for (const [key, value] of Object.entries(body as Body)) {
    if (value === undefined) continue;
    const field = prefix + key;
    // Own keys only: a field named `constructor` is not Object's.
    if (Object.hasOwn(fields, key)) fields[key](value, out, field);
    else if (!NO_EFFECT.has(key)) throw refuse(field, 'is not a field this server takes');
  }
  return out;
}

const FORMATS: Record<string, string> = {
  markdown: 'markdown',
  html: 'html',
  rawHtml: 'raw_html',
  links: 'links',
  // Ours is always the full page (the viewport's width, up to 16,384 CSS pixels tall).
  screenshot: 'screenshot',
  'screenshot@fullPage': 'screenshot',
};
const LLM_FORMATS = new Set([
  'json',
  'extract',
  'summary',
  'changeTracking',
  'query',
  'question',
  'highlights',
]);

function toFormats(value: unknown, field: string): string[] {
  if (!Array.isArray(value)) throw refuse(field, 'must be an array');
  const out = value.map((f: unknown, i) => {
    const name = typeof f === 'object' && f !== null ? (f as Body).type : f;
    const at = `${field}[${i}]`;
    if (typeof name !== 'string') throw refuse(at, 'must be a format name or {type}');
    if (LLM_FORMATS.has(name)) throw refuse(at, `${name} ${LLM}`);
    if (!Object.hasOwn(FORMATS, name)) throw refuse(at, `${name} is not a format this server produces`);
    if (typeof f === 'object') {
      const extra = Object.keys(f as Body).filter((k) => k !== 'type' && k !== 'fullPage');
      if (extra.length) throw refuse(`${at}.${extra[0]}`, 'is not supported by this server');
    }
    return FORMATS[name];
  });
  return [...new Set(out)];
}

const ACTION_TYPES = new Map([['executeJavascript', 'execute_javascript']]);
const ACTION_FIELDS = new Map([['fullPage', 'full_page']]);

/** Their actions onto ours (same types, camelCase names); our validation judges the rest. */
function toActions(value: unknown, field: string): unknown[] {
  if (!Array.isArray(value)) throw refuse(field, 'must be an array');
  return value.map((a: unknown) => {
    if (typeof a !== 'object' || a === null) return a;
    const out: Body = {};
    for (const [k, v] of Object.entries(a as Body)) {
      out[ACTION_FIELDS.get(k) ?? k] = k === 'type' && typeof v === 'string' ? (ACTION_TYPES.get(v) ?? v) : v;
    }
    return out;
  });
}

function toLocation(value: unknown, out: Body, field: string): void {
  if (typeof value !== 'object' || value === null) throw refuse(field, 'must be an object');
  const { country, languages, ...rest } = value as Body;
  const extra = Object.keys(rest)[0];
  if (extra) throw refuse(`${field}.${extra}`, 'is not a field this server takes');
  if (present(country)) {
    throw refuse(`${field}.country`, 'country geotargeting is not supported by this server (leave it unset)');
  }
  if (languages === undefined) return;
  if (
    !Array.isArray(languages) ||
    !languages.every((l) => typeof l === 'string' && /^[A-Za-z0-9-]{1,35}$/.test(l))
  ) {
    throw refuse(`${field}.languages`, 'must be an array of language tags');
  }
  if (!languages.length) return;
  const headers = (out.headers ?? {}) as Body;
  const given = Object.keys(headers).some((h) => h.toLowerCase() === 'accept-language');
  // Their languages become Accept-Language, unless the caller's own headers already set it.
  if (!given) out.headers = { ...headers, 'Accept-Language': languages.join(', ') };
}

const SCRAPE_FIELDS: FieldMap = {
  formats: (v, out, f) => {
    out.formats = toFormats(v, f);
  },
  onlyMainContent: rename('only_main_content'),
  includeTags: rename('include_tags'),
  excludeTags: rename('exclude_tags'),
  // Their 0 is "no extra wait", our default.
  waitFor: (v, out) => {
    if (v !== 0) out.wait_for = v;
  },
  timeout: rename('timeout'),
  maxAge: rename('max_age'),
  mobile: rename('mobile'),
  headers: (v, out) => {
    // Merged with an Accept-Language that `location` may have set first.
    out.headers =
      typeof v === 'object' && v !== null && !Array.isArray(v) ? { ...(out.headers as Body), ...v } : v;
  },
  actions: (v, out, f) => {
    out.actions = toActions(v, f);
  },
  location: toLocation,
  // Their `basic` and `auto` are our default: the operator's pool when PROXY_URLS is set, else direct.
  proxy: refusedWhen(
    (v) => v !== 'basic' && v !== 'auto',
    'only basic and auto are supported (stealth and enhanced proxies are not)',
  ),
  skipTlsVerification: refusedWhen(isTrue, 'TLS certificates are always verified by this server'),
  zeroDataRetention: refusedWhen(isTrue, 'results are kept for RESULT_RETENTION_DAYS on this server'),
  jsonOptions: always(LLM),
  extract: always(LLM),
  changeTrackingOptions: always(LLM),
  useMock: always('is not supported by this server'),
};

/** Their scrape options (a scrape's or a batch's top level, a crawl's `scrapeOptions`) onto ours. */
export function toScrapeBody(body: unknown, prefix = '', out: Body = {}, extra: FieldMap = {}): Body {
  return mapFields(headersFirst(body), { ...SCRAPE_FIELDS, ...extra }, prefix, out);
}

/** `headers` before `location`, so an Accept-Language the caller set wins over `languages`. */
function headersFirst(body: unknown): unknown {
  if (typeof body !== 'object' || body === null || !('headers' in body)) return body;
  const { headers, ...rest } = body as Body;
  return { headers, ...rest };
}

/** Their webhook (a URL, or {url, headers, metadata, events}) onto our `webhook_url`. */
export function toWebhookUrl(value: unknown, field = 'webhook'): unknown {
  if (typeof value === 'string' || value === null) return value ?? undefined;
  if (typeof value !== 'object' || Array.isArray(value))
    throw refuse(field, 'must be a URL or {url, events}');
  const { url, headers, metadata, events, ...rest } = value as Body;
  const extra = Object.keys(rest)[0];
  if (extra) throw refuse(`${field}.${extra}`, 'is not a field this server takes');
  const nonEmpty = (v: unknown) => present(v) && Object.keys(v).length > 0;
  if (nonEmpty(headers)) throw refuse(`${field}.headers`, 'webhooks carry our signature headers only');
  if (nonEmpty(metadata))
    throw refuse(`${field}.metadata`, 'webhook metadata is not supported by this server');
  if (events !== undefined) {
    const list = Array.isArray(events) ? events : [];
    if (
      !list.includes('completed') ||
      !list.includes('failed') ||
      list.some((e) => e !== 'completed' && e !== 'failed')
    ) {
      throw refuse(
        `${field}.events`,
        'this server sends one webhook when the job ends (completed, failed or cancelled): events must be completed and failed',
      );
    }
  }
  return url;
}

const webhook = (v: unknown, out: Body, f: string): void => {
  const url = toWebhookUrl(v, f);
  if (url !== undefined) out.webhook_url = url;
};

const BATCH_FIELDS: FieldMap = {
  urls: rename('urls'),
  webhook,
  ignoreInvalidURLs: refusedWhen(isTrue, 'a batch with an invalid URL is refused whole, naming its index'),
  appendToId: always('appending to a batch is not supported by this server'),
};

export function toBatchBody(body: unknown): Body {
  return toScrapeBody(body, '', {}, BATCH_FIELDS);
}

export function toSingleScrapeBody(body: unknown): Body {
  return toScrapeBody(body, '', {}, { url: rename('url') });
}

const CRAWL_FIELDS: FieldMap = {
  url: rename('url'),
  limit: rename('limit'),
  includePaths: rename('include_paths'),
  excludePaths: rename('exclude_paths'),
  maxDiscoveryDepth: rename('max_depth'),
  maxDepth: rename('max_depth'),
  allowExternalLinks: rename('allow_external_links'),
  allowSubdomains: rename('allow_subdomains'),
  ignoreSitemap: rename('ignore_sitemap'),
  sitemap: (v, out, f) => {
    if (v === 'only')
      throw refuse(f, 'only: crawling from the sitemap alone is not supported by this server');
    if (v !== 'include' && v !== 'skip') throw refuse(f, 'must be include or skip');
    out.ignore_sitemap = v === 'skip';
  },
  ignoreRobotsTxt: (v, out) => {
    out.respect_robots_txt = typeof v === 'boolean' ? !v : v;
  },
  webhook,
  scrapeOptions: (v, out) => {
    toScrapeBody(v, 'scrapeOptions.', out);
  },
  delay: refusedWhen((v) => v !== 0, 'a fixed delay is not supported (robots.txt Crawl-delay is honoured)'),
  ignoreQueryParameters: refusedWhen(isTrue, 'a crawl keeps query strings (sorted) as parts of URLs'),
  regexOnFullURL: refusedWhen(isTrue, 'includePaths and excludePaths match URL paths only'),
  prompt: always(LLM),
  robotsUserAgent: always('robots.txt is read for our own user agent'),
  zeroDataRetention: SCRAPE_FIELDS.zeroDataRetention,
};

export function toCrawlBody(body: unknown): Body {
  return mapFields(body, CRAWL_FIELDS, '');
}

const MAP_FIELDS: FieldMap = {
  url: rename('url'),
  search: rename('search'),
  limit: rename('limit'),
  includeSubdomains: rename('allow_subdomains'),
  ignoreSitemap: rename('ignore_sitemap'),
  sitemap: CRAWL_FIELDS.sitemap,
  sitemapOnly: refusedWhen(isTrue, 'listing the sitemap alone is not supported by this server'),
  ignoreQueryParameters: refusedWhen(isTrue, 'a map keeps query strings (sorted) as parts of URLs'),
  location: (v, _out, f) => {
    toLocation(v, {}, f);
  },
  // A map has its own time cap on this server (MAP_TIME_MS).
  timeout: () => undefined,
  useIndex: refusedWhen((v) => v === true, 'this server keeps no index of the web'),
};

export function toMapBody(body: unknown): Body {
  return mapFields(body, MAP_FIELDS, '');
}

/** Our snake_case field names back to theirs, for the messages of our validation. */
export const THEIR_FIELD_NAMES: Record<string, string> = {
  only_main_content: 'onlyMainContent',
  include_tags: 'includeTags',
  exclude_tags: 'excludeTags',
  wait_for: 'waitFor',
  include_paths: 'includePaths',
  exclude_paths: 'excludePaths',
  max_depth: 'maxDiscoveryDepth',
  allow_external_links: 'allowExternalLinks',
  allow_subdomains: 'allowSubdomains',
  ignore_sitemap: 'ignoreSitemap',
  respect_robots_txt: 'ignoreRobotsTxt',
  webhook_url: 'webhook',
  execute_javascript: 'executeJavascript',
  full_page: 'fullPage',
  raw_html: 'rawHtml',
};
