import { parseDocument, removeNonContent } from './html-document';

const textAfterCleanup = (html: string) => {
  const document = parseDocument(`<!doctype html><html><head>${html}</body></html>`);
  removeNonContent(document);
  return (document.body.textContent ?? '').replace(/\s+/g, ' ').trim();
};

describe('removeNonContent and a page its scripts show', () => {
  it('shows the hidden box around the h1 the <title> holds when no such h1 is shown', () => {
    const text = textAfterCleanup(`<title>Almond thins | Shop</title></head><body>
      <header><p>Free shipping</p></header>
      <div class="defer-block" style="display: none"><article><h1>Almond thins</h1>
        <p>Crunchy almond crisps.</p><div style="display:none">A closed dialog.</div></article></div>`);
    expect(text).toContain('Crunchy almond crisps.');
    expect(text).not.toContain('A closed dialog.');
  });

  it('keeps hidden a dialog repeating a title the page shows', () => {
    const text = textAfterCleanup(`<title>Garden shows | News</title></head><body>
      <article><h1>Garden shows</h1><p>The story.</p></article>
      <div class="modal" style="display:none"><h1>Garden shows</h1><p>Copy this story.</p></div>`);
    expect(text).toContain('The story.');
    expect(text).not.toContain('Copy this story.');
  });

  it('keeps hidden a box whose h1 the <title> does not hold', () => {
    const text = textAfterCleanup(`<title>Garden shows</title></head><body><p>The story.</p>
      <div style="display:none"><h1>Sign up</h1><p>Our newsletter.</p></div>`);
    expect(text).not.toContain('Our newsletter.');
  });
});

describe('parseDocument and a body opened before its tag', () => {
  it('reads the markup before and after <body> as one body, as a browser does', () => {
    const document = parseDocument(
      '<!doctype html><html><head><title>Kettle</title></head><header><p>headerText</p></header>' +
        '<div><p>beforeText</p></div><body class="product"><main><p>mainText</p></main></body>' +
        '<body id="late"><p>laterText</p></body></html>',
    );
    const text = (document.body.textContent ?? '').replace(/\s+/g, ' ');
    for (const part of ['headerText', 'beforeText', 'mainText', 'laterText']) expect(text).toContain(part);
    expect(text.indexOf('headerText')).toBeLessThan(text.indexOf('mainText'));
    expect(document.body.getAttribute('class')).toBe('product');
    expect(document.querySelectorAll('body')).toHaveLength(1);
  });
});
