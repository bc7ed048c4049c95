// What bench:extract scores: the service's only_main_content, run as the worker runs it (the same
// ContentPool and page-content task, in its threads) or through a live API, and Readability.js
// beside it (score.mjs's baseline: on a linkedom document, charThreshold 500).
import 'reflect-metadata';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import { WorkerEnv } from '@app/config';
import { SCRAPE_DEFAULTS, type ScrapeOptions } from '@app/queue-contracts';
import { ContentPool } from '@app/rendering';

/** The markdown of a page, or why there is none. */
export type Extraction = { markdown: string } | { error: string };

export interface ServiceExtractor {
  extract(url: string, html: string, bytes: Buffer, charset: string): Promise<Extraction>;
  close(): Promise<void>;
}

const OPTIONS: ScrapeOptions = { ...SCRAPE_DEFAULTS, formats: ['markdown'], only_main_content: true };

/** The worker's content threads, with the worker's defaults unless the environment says otherwise. */
export function poolExtractor(threads: number): ServiceExtractor & { pool: ContentPool } {
  const defaults = new WorkerEnv();
  const pool = new ContentPool({
    CONTENT_THREADS: threads,
    CONTENT_HEAP_MB: Number(process.env.CONTENT_HEAP_MB ?? defaults.CONTENT_HEAP_MB),
    CONTENT_TIMEOUT_MS: Number(process.env.CONTENT_TIMEOUT_MS ?? defaults.CONTENT_TIMEOUT_MS),
  });
  return {
    pool,
    async extract(url, html) {
      try {
        // decide: false, as for a page the http engine fetched with render: http.
        const answer = await pool.run({
          input: { body: html, kind: 'html', url, options: OPTIONS },
          decide: false,
        });
        if ('content' in answer) return { markdown: answer.content.markdown ?? '' };
        if ('refused' in answer) return { error: `${answer.refused.code}: ${answer.refused.message}` };
        if ('failed' in answer) return { error: answer.failed };
        return { error: `needs JavaScript: ${answer.javascript}` };
      } catch (err) {
        return { error: err instanceof Error ? err.message : String(err) };
      }
    },
    close: () => pool.close(),
  };
}

/**
 * A live service through its API: each page is served from a loopback server of the bench's own
 * (its saved bytes, with the charset found for them) and scraped with POST /v1/scrape. The
 * service's workers must be allowed to reach loopback (NET_ALLOW_CIDRS=127.0.0.0/8).
 */
export async function apiExtractor(apiUrl: string, key: string, render: string): Promise<ServiceExtractor> {
  const served = new Map<string, { bytes: Buffer; charset: string }>();
  const server: Server = createServer((req, res) => {
    const page = served.get(req.url ?? '');
    if (!page) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': `text/html; charset=${page.charset}` }).end(page.bytes);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let next = 0;
  return {
    async extract(_url, _html, bytes, charset) {
      const path = `/p/${next++}`;
      served.set(path, { bytes, charset });
      try {
        const response = await fetch(new URL('/v1/scrape', apiUrl), {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify({
            url: origin + path,
            formats: ['markdown'],
            only_main_content: true,
            render,
          }),
        });
        const result = (await response.json()) as {
          markdown?: string;
          error?: { code: string };
          code?: string;
        };
        if (!response.ok) return { error: `API ${response.status} ${result.code ?? ''}` };
        return result.error ? { error: result.error.code } : { markdown: result.markdown ?? '' };
      } finally {
        served.delete(path);
      }
    },
    close: () => new Promise((done) => server.close(() => done())),
  };
}

/** Readability.js's text of the page, as score.mjs defines the baseline ('' when it finds nothing). */
export function readabilityText(html: string): string {
  try {
    const { document } = parseHTML(html);
    return new Readability(document, { charThreshold: 500 }).parse()?.textContent ?? '';
  } catch {
    return '';
  }
}
