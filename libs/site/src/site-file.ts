import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import { AddressPolicy, HostResolver, guardedFetch, type UpstreamProxy } from '@app/net-guard';

const gunzipAsync = promisify(gunzip);

export interface SiteFile {
  status: number;
  text: string;
}

/**
 * GET of a site's own file (robots.txt, a sitemap) through the address policy, redirects
 * followed, through `upstream` when the job's pages go through one. A gzipped body
 * (`sitemap.xml.gz`) is unpacked, within the same size cap. Throws what guardedFetch throws when
 * there is no answer.
 */
export async function fetchSiteFile(
  url: string,
  net: { policy: AddressPolicy; resolver: HostResolver; upstream?: UpstreamProxy },
  maxBytes: number,
  timeoutMs = 15_000,
): Promise<SiteFile> {
  const res = await guardedFetch(url, { ...net, timeoutMs, maxBytes, followRedirects: 5 });
  let body = res.body;
  if (body[0] === 0x1f && body[1] === 0x8b) body = await gunzipAsync(body, { maxOutputLength: maxBytes });
  return { status: res.status, text: body.toString('utf8') };
}
