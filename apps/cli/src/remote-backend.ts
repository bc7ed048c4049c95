import type { JobAccepted, JobView } from '@app/jobs';
import { BackendRefusal, type RequestBody, type ScraperBackend } from '@app/mcp';
import type { MapResult, PageResult } from '@app/queue-contracts';

/**
 * A running cluster over its REST API (docs/api.md), with one API key. Refusals come back as
 * BackendRefusal with the API's error code and message; the key is sent, never shown.
 */
export function remoteBackend(apiUrl: string, key: string): ScraperBackend {
  const base = apiUrl.replace(/\/+$/, '');
  const call = async <T>(method: string, path: string, body?: RequestBody): Promise<T> => {
    let res: Response;
    try {
      res = await fetch(`${base}${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
    } catch (err) {
      const cause = (err as { cause?: { code?: string } }).cause?.code ?? (err as Error).message;
      throw new BackendRefusal('unavailable', `cannot reach ${base}: ${cause}`, 0);
    }
    const text = await res.text();
    const parsed = parseJson(text);
    if (!res.ok) {
      const error = (parsed ?? {}) as ApiError;
      const detail = [error.detail, ...(error.errors ?? []).map((e) => `${e.field}: ${e.message}`)]
        .filter((part) => !!part)
        .join('; ');
      throw new BackendRefusal(error.code ?? `http_${res.status}`, detail || res.statusText, res.status);
    }
    return parsed as T;
  };
  return {
    scrape: (body) => call<PageResult>('POST', '/v1/scrape', body),
    batchScrape: (body) => call<JobAccepted>('POST', '/v1/scrape/batch/async', body),
    crawl: (body) => call<JobAccepted>('POST', '/v1/crawl', body),
    map: (body) => call<MapResult>('POST', '/v1/map', body),
    jobStatus: (jobId, page = {}) => {
      const query = new URLSearchParams();
      if (page.cursor !== undefined) query.set('cursor', page.cursor);
      if (page.page_size !== undefined) query.set('page_size', String(page.page_size));
      const suffix = query.size ? `?${query.toString()}` : '';
      return call<JobView>('GET', `/v1/jobs/${encodeURIComponent(jobId)}${suffix}`);
    },
    cancel: (jobId) => call<JobView>('DELETE', `/v1/jobs/${encodeURIComponent(jobId)}`),
  };
}

/** docs/api.md, Errors. */
interface ApiError {
  code?: string;
  detail?: string;
  errors?: { field: string; message: string }[];
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
