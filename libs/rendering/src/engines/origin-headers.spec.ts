import { DOCUMENT_RESPONSES } from './document-pdf';
import { OriginHeaderInjector } from './origin-headers';

/** The CDP calls the injector makes, in order (the session itself is a browser's; none here). */
function recordingSession() {
  const calls: [string, unknown][] = [];
  return {
    calls,
    cdp: {
      send: async (method: string, params?: Record<string, unknown>) => void calls.push([method, params]),
      on: () => undefined,
    },
  };
}

describe('OriginHeaderInjector: what Fetch pauses', () => {
  const headers = { origin: 'http://a.test:8080', headers: { 'x-key': '1' } };
  const originPattern = { urlPattern: 'http://a.test:8080/*' };

  it('pauses nothing on a page without headers until a document is to be read', async () => {
    const { cdp, calls } = recordingSession();
    const injector = new OriginHeaderInjector(cdp);
    await injector.beginPage(undefined);
    await injector.beginPage(undefined);
    expect(calls).toEqual([]);
    await injector.readDocuments();
    expect(calls).toEqual([['Fetch.enable', { patterns: [DOCUMENT_RESPONSES] }]]);
    // The next page forgets it: interception off again.
    await injector.beginPage(undefined);
    expect(calls.at(-1)).toEqual(['Fetch.disable', undefined]);
  });

  it("pauses the origin's requests on a page with headers, documents too once asked, and sends each change once", async () => {
    const { cdp, calls } = recordingSession();
    const injector = new OriginHeaderInjector(cdp);
    await injector.beginPage(headers);
    await injector.beginPage(headers);
    await injector.readDocuments();
    await injector.beginPage(headers);
    expect(calls).toEqual([
      ['Fetch.enable', { patterns: [originPattern] }],
      ['Fetch.enable', { patterns: [originPattern, DOCUMENT_RESPONSES] }],
      ['Fetch.enable', { patterns: [originPattern] }],
    ]);
  });
});
