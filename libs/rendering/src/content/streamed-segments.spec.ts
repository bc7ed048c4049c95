import { parseDocument, removeNonContent } from './html-document';

/** The body's text without whitespace: where each part ended up, in order. */
const text = (html: string) => {
  const document = parseDocument(html);
  removeNonContent(document);
  return (document.body.textContent ?? '').replace(/\s+/g, '');
};

describe('React streamed segments', () => {
  it('puts each hidden segment where its template stands, in place of the boundary fallback', () => {
    const body = text(`<!doctype html><html><body><main><h1>Kettle</h1>
      <!--$?--><template id="B:0"></template><div>Loading...</div><!--$--><i>nested</i><!--/$--><!--/$-->
      <p>Between.</p><div><template id="P:1"></template></div></main>
      <div hidden id="S:0"><section>streamedFeatures of the kettle</section></div>
      <div hidden id="S:1"><p>streamedSegment text</p></div>
      <script>$RC("B:0","S:0");$RS("S:1","P:1")</script></body></html>`);
    expect(body).toBe('KettlestreamedFeaturesofthekettleBetween.streamedSegmenttext');
  });

  it('leaves the fallback when the comments that bound it are gone, and other hidden elements hidden', () => {
    const body = text(`<!doctype html><html><body><template id="B:0"></template><div>Loading...</div>
      <div hidden id="S:0">streamedText</div><div hidden id="S:9">orphanText</div>
      <div hidden>hiddenText</div></body></html>`);
    expect(body).toBe('streamedTextLoading...');
  });
});
