import { parseHTML } from 'linkedom';
import { extractMainContent, jsonLdNodes, readPageProfile } from './index';
import { productTitle } from './product';

const sentence = (topic: string, i: number) =>
  `${topic} sentence ${i} carries enough words to read as real prose for the extractor to weigh.`;
const paragraphs = (topic: string, count: number) =>
  Array.from({ length: count }, (_, i) => `<p>${sentence(topic, i)}</p>`).join('');

const PRODUCT_LD = (description: string) =>
  `<script type="application/ld+json">${JSON.stringify({
    '@context': 'https://schema.org',
    '@type': 'Product',
    name: 'Steel kettle',
    description,
    offers: { '@type': 'Offer', price: '49.00', priceCurrency: 'EUR' },
  })}</script>`;

function extract(head: string, body: string): string {
  const { document } = parseHTML(`<!doctype html><html><head>${head}</head><body>${body}</body></html>`);
  const jsonLd = jsonLdNodes(document);
  const kind = readPageProfile(document, jsonLd);
  return (extractMainContent(document, kind, jsonLd).textContent ?? '').replace(/\s+/g, ' ');
}

describe('extractMainContent on product pages', () => {
  const cards = (count: number) =>
    Array.from(
      { length: count },
      (_, i) => `<div class="card"><a href="/p/${i}">otherProduct ${i} with a long enough name</a></div>`,
    ).join('');

  it('drops other products and reviews, and keeps one copy of a repeated block', () => {
    const text = extract(
      PRODUCT_LD('A kettle.'),
      `<div class="product"><h1>Steel kettle</h1><span class="price">$49.00</span>
        <div class="desktop">${paragraphs('kettleDescription', 3)}</div>
        <div class="mobile">${paragraphs('kettleDescription', 3)}</div>
        <table><tr><th>Capacity</th><td>1.7 l</td></tr></table>
        <div class="carousel">${cards(8)}</div>
        <section><h2>Customer reviews</h2><h3>Great</h3><p>reviewText of a happy buyer.</p>
          <h3>Fine</h3><p>reviewText of another buyer.</p></section>
        <section><h2>You may also like</h2>${cards(4).replace(/otherProduct/g, 'alsoLike')}</section></div>`,
    );
    for (const part of ['Steel kettle', '$49.00', 'kettleDescription sentence 2', 'Capacity'])
      expect(text).toContain(part);
    expect(text.split('kettleDescription sentence 2').length).toBe(2);
    for (const noise of ['otherProduct', 'reviewText', 'alsoLike']) expect(text).not.toContain(noise);
  });

  it('drops a long list of reviews that outweighs the description, and keeps the title beside it', () => {
    const reviews = Array.from(
      { length: 12 },
      (_, i) => `<div class="review-item"><p>${sentence(`buyerReview${i}`, i)}</p></div>`,
    ).join('');
    const text = extract(
      PRODUCT_LD('A kettle.'),
      `<div class="page"><div class="summary"><h1>Steel kettle</h1><span>$49.00</span></div>
        <div class="details">${paragraphs('kettleDescription', 3)}
        <div class="product-reviews"><h2>What buyers say</h2>${reviews}</div></div></div>`,
    );
    for (const part of ['Steel kettle', '$49.00', 'kettleDescription sentence 2'])
      expect(text).toContain(part);
    expect(text).not.toContain('buyerReview');
  });

  it('keeps a short testimonial, and drops a sign-up around an email field', () => {
    const text = extract(
      PRODUCT_LD('A kettle.'),
      `<main><h1>Steel kettle</h1>${paragraphs('kettleDescription', 4)}
        <div class="review">"testimonialText: boils fast."</div>
        <div class="x"><h3>signupTitle: deals in your inbox</h3><p>signupPitch of the week.</p>
          <form><input type="email" name="e"><button>Sign up</button></form></div></main>`,
    );
    expect(text).toContain('testimonialText');
    for (const noise of ['signupTitle', 'signupPitch']) expect(text).not.toContain(noise);
  });

  it("drops what is not the product's own, named by its heading: related items, feedback, shipping", () => {
    const text = extract(
      PRODUCT_LD('A kettle.'),
      `<main><h1>Steel kettle</h1>${paragraphs('kettleDescription', 4)}
        <div><h2>Products related to this item</h2><p>relatedItem: a steel mug, $12.</p></div>
        <div><h2>Seller feedback (1,204)</h2><p>feedbackText: arrived on time.</p></div>
        <div><h2>Customers frequently viewed</h2><p>viewedItem: a copper kettle.</p></div>
        <div><h2>User testimonials</h2><p>testimonialText: love it.</p></div>
        <div><h3>Shipping &amp; Returns</h3><p>shippingText: 30 days.</p></div>
        <div><h2>Kettle accessories</h2><p>accessoryItem: a descaler.</p></div></main>`,
    );
    expect(text).toContain('kettleDescription sentence 3');
    for (const noise of [
      'relatedItem',
      'feedbackText',
      'viewedItem',
      'testimonialText',
      'shippingText',
      'accessoryItem',
    ])
      expect(text).not.toContain(noise);
  });

  it('drops the same labels as lines of their own, an accordion or a carousel title, with what they open', () => {
    const text = extract(
      PRODUCT_LD('A kettle.'),
      `<main><h1>Steel kettle</h1>${paragraphs('kettleDescription', 4)}
        <div class="accordion"><div class="accordion-title">Delivery &amp; Returns</div>
          <div class="panel"><div>deliveryText: free over $50.</div></div></div>
        <div class="strip"><div class="title">Your recently viewed items</div><div>viewedItem: a copper kettle</div></div>
      </main>`,
    );
    expect(text).toContain('kettleDescription sentence 3');
    for (const noise of ['deliveryText', 'viewedItem', 'Delivery']) expect(text).not.toContain(noise);
  });

  it("drops sections headed as empty reviews, the brand's pitch, others' purchases, feedback, offers, reviews in other languages", () => {
    const text = extract(
      PRODUCT_LD('A kettle.'),
      `<main><h1>Steel kettle</h1>${paragraphs('kettleDescription', 4)}
        <div><h2>Be the first to review this item</h2><p>emptyReviews: write a review and earn points.</p></div>
        <div><h2>From the brand</h2><p>brandPitch: we have made kettles since 1990.</p></div>
        <div><h3>Others like you also bought:</h3><p>boughtItem: a copper kettle.</p></div>
        <div><h2>Avis clients</h2><p>avisText: très bien.</p></div>
        <div><h2>Kundenbewertungen</h2><p>bewertungText: sehr gut.</p></div>
        <div><h2>Feedback</h2><p>feedbackWidget: would you like to tell us about a lower price?</p></div>
        <div><h2>Your recently viewed items</h2><p>viewedItem: a copper kettle.</p></div>
        <div><h2>More buying options</h2><p>offerItem: used, $30.</p></div>
        <div><h2>Produits complémentaires</h2><p>produitItem: une tasse.</p></div></main>`,
    );
    expect(text).toContain('kettleDescription sentence 3');
    for (const noise of [
      'emptyReviews',
      'brandPitch',
      'boughtItem',
      'avisText',
      'bewertungText',
      'feedbackWidget',
      'viewedItem',
      'offerItem',
      'produitItem',
    ])
      expect(text).not.toContain(noise);
  });

  it('takes the h1 the <title> names as the product title, past a menu h1 before it', () => {
    const { document } = parseHTML(
      `<html><head><title>Steel Kettle | Shop</title></head><body><div class="drawer"><h1>Menu</h1></div>
        <div class="summary"><h1>Steel  kettle</h1></div></body></html>`,
    );
    expect(productTitle(document.body)?.textContent).toBe('Steel  kettle');
    document.querySelector('.summary')!.remove();
    expect(productTitle(document.body)?.textContent).toBe('Menu');
  });

  it('does not read an h1 longer than a line as a name (an h1 around a whole page)', () => {
    const long = 'kettle '.repeat(400);
    const { document } = parseHTML(
      `<html><head><title>${long}</title></head><body><h1 id="page">${long}</h1><h1 id="name">kettle</h1></body></html>`,
    );
    expect(productTitle(document.body)?.id).toBe('name');
  });

  it('reads the product from JSON-LD when the visible page is a script shell', () => {
    const text = extract(
      PRODUCT_LD('<strong>Boils fast.</strong>\nA brushed steel body that keeps its shine.'),
      `<div id="app"><a href="#main">Skip to content</a></div>`,
    );
    for (const part of ['Steel kettle', '49.00 EUR', 'Boils fast.', 'A brushed steel body'])
      expect(text).toContain(part);
    expect(text).not.toContain('<strong>');
  });

  it('adds the JSON-LD description that scripts draw to a page showing the rest of the product', () => {
    const description =
      'scriptedDescription: a brushed steel body that keeps its shine for years.\n' +
      'scriptedLid: the wide lid opens with one hand and fills without spilling a drop.';
    const buyBox = `<main><h1>Steel kettle</h1><p>$49.00</p>${paragraphs('sizeAndColour', 3)}</main>`;
    const text = extract(PRODUCT_LD(description), buyBox);
    for (const part of ['sizeAndColour sentence 2', 'scriptedDescription: a brushed', 'scriptedLid'])
      expect(text).toContain(part);
    // Shown already, or percent-encoded (no text a reader sees): not added.
    const shown = extract(PRODUCT_LD(description), buyBox.replace('</main>', `<p>${description}</p></main>`));
    expect(shown.split('scriptedLid').length).toBe(2);
    expect(extract(PRODUCT_LD(encodeURIComponent(description)), buyBox)).not.toContain('scriptedDescription');
  });

  it("takes the structural pick when Readability's article leaves out the product's description", () => {
    const description =
      'descriptionText: a brushed steel kettle that boils a litre in three minutes. ' +
      'Its wide lid opens with one hand, and its base turns all the way round.';
    const features = Array.from(
      { length: 6 },
      (_, i) =>
        `<div class="feature"><h3>Feature ${i}</h3><p>featureText ${i}, told at length: the element heats fast, the ` +
        `handle stays cool, the spout pours clean, and the filter keeps scale out of your cup, again and again.</p></div>`,
    ).join('');
    const text = extract(
      PRODUCT_LD(description),
      `<main><div class="summary"><h1>Steel kettle</h1><span>$49.00</span>
        <ul><li>specCapacity: 1.7 litres</li><li>specPower: 2200 watts</li></ul><div class="accordion"><div>${description}</div></div></div>
        <div class="features">${features}</div></main>`,
    );
    // The description's neighbours too, which JSON-LD does not hold.
    for (const part of ['descriptionText', 'specCapacity', 'featureText 5']) expect(text).toContain(part);
    expect(text.split('descriptionText').length).toBe(2);
    // Without JSON-LD's, the description is the block named so.
    const named = extract(
      '<meta property="og:type" content="product">',
      `<main><div class="summary"><h1>Steel kettle</h1><span>$49.00</span>
        <div class="accordion"><div class="product-description">${description}<br>
        Its limescale filter lifts out to rinse under the tap, and its cord winds into its base.<br>
        A light shows when it heats, and it switches itself off once the water boils.</div></div></div>
        <div class="features">${features}</div></main>`,
    );
    for (const part of ['descriptionText', 'featureText 5']) expect(named).toContain(part);
    // Nor that, it is the prose the article leaves out.
    const unnamed = extract(
      '<meta property="og:type" content="product">',
      `<main><div class="summary"><h1>Steel kettle</h1><span>$49.00</span><div class="accordion"><div>
        <p>${description}</p><p>proseText: its limescale filter lifts out to rinse under the tap, and its cord
        winds into its base, so it stands tidy on any worktop.</p></div></div></div>
        <div class="features">${features}</div></main>`,
    );
    for (const part of ['descriptionText', 'proseText', 'featureText 5']) expect(unnamed).toContain(part);
  });

  it('leaves a product page with visible text as it is', () => {
    const text = extract(
      PRODUCT_LD('jsonLdOnly description.'),
      `<main>${paragraphs('visibleText', 4)}</main>`,
    );
    expect(text).toContain('visibleText sentence 3');
    expect(text).not.toContain('jsonLdOnly');
  });
});

describe('readPageProfile on product pages', () => {
  const kind = (head: string, body = '') =>
    readPageProfile(parseHTML(`<html><head>${head}</head><body>${body}</body></html>`).document);
  const item = (type: string) => `<div itemscope itemtype="https://schema.org/${type}"><span>x</span></div>`;

  it('takes the JSON-LD product over an og:type of article, a CMS default', () => {
    expect(kind(`<meta property="og:type" content="article">${PRODUCT_LD('A kettle.')}`)).toBe('product');
  });

  it('takes one microdata product item, not several (a collection lists them)', () => {
    expect(kind('<meta property="og:type" content="website">', item('Product') + item('Offer'))).toBe(
      'product',
    );
    expect(kind('', item('Product') + item('Product') + item('Product'))).toBe('other');
  });

  it("takes OpenGraph's product item, not its product group (a shop's collection)", () => {
    expect(kind('<meta property="og:type" content="product.item">')).toBe('product');
    expect(kind('<meta property="og:type" content="product.group">')).toBe('other');
  });

  it("takes a shop plugin's og:type of product beside a CMS's og:type of article", () => {
    expect(
      kind('<meta property="og:type" content="article"><meta property="og:type" content="og:product">'),
    ).toBe('product');
    expect(
      kind('<meta property="og:type" content="article"><meta property="og:type" content="website">'),
    ).toBe('article');
  });

  it('takes an h1 named as the product title when nothing else is said, not a listing of them', () => {
    const h1 = (i: number) => `<h1 class="title"><span id="productTitle">Kettle ${i}</span></h1>`;
    expect(kind('', h1(1))).toBe('product');
    expect(kind('', [1, 2, 3, 4].map(h1).join(''))).toBe('other');
    expect(kind('<meta property="og:type" content="article">', h1(1))).toBe('article');
  });
});

describe('extractMainContent on collections', () => {
  it('keeps the product cards and drops a filter panel of labelled checkboxes', () => {
    const options = [
      'Red',
      'Blue',
      'Green',
      'Black',
      'White',
      'Small',
      'Medium',
      'Large',
      '$10 - $25',
      '$25 - $50',
    ]
      .flatMap((label) => [label, `${label} (2)`])
      .map((label, i) => `<li><input type="checkbox" id="o${i}"><label for="o${i}">${label}</label></li>`)
      .join('');
    const cards = Array.from(
      { length: 10 },
      (_, i) =>
        `<li class="tile"><a href="/p/${i}"><h3>collectionTile ${i}</h3></a><p>Tile ${i} details in words.</p></li>`,
    ).join('');
    const text = extract(
      '',
      `<div class="page"><div class="facet-panel"><h2>Colour</h2><ul>${options}</ul></div>
        <h1>Kettles</h1><ul class="tiles">${cards}</ul></div>`,
    );
    for (let i = 0; i < 10; i++) expect(text).toContain(`collectionTile ${i}`);
    for (const option of ['Green', '$10 - $25']) expect(text).not.toContain(option);
  });
});

describe('extractMainContent on a product page: the buy box', () => {
  const options = `<div>Color: optionWhite</div><div>optionWhite</div><div>optionBlack</div>
      <div>quantityLabel</div><input name="quantity" value="1">`;
  const buyForm = `<form action="/cart/add" method="post">${options}<button type="submit">Add to cart</button>
      <div>or 4 paymentsOf $12.00</div></form>`;

  it('drops the form that buys, its options and payment plans, and keeps the product text', () => {
    const page = (buy: string) =>
      extract(
        '<meta property="og:type" content="product">',
        `<main><div class="product"><h1>Steel kettle</h1><div>$49.00</div>${buy}
        <div class="selling-usps"><div>uspLine: delivery in 2 days</div><div>uspLine: free returns</div></div>
        ${paragraphs('kettleDescription', 4)}</div></main>`,
      );
    for (const text of [page(buyForm), page(`<div class="product-form">${options}</div>`)]) {
      expect(text).toContain('kettleDescription sentence 3');
      for (const noise of ['optionWhite', 'optionBlack', 'quantityLabel', 'paymentsOf', 'uspLine'])
        expect(text).not.toContain(noise);
    }
  });

  it("keeps a form that holds the product's description; drops a buy form on a page that says nothing", () => {
    const wrapped = extract(
      '<meta property="og:type" content="product">',
      `<main><h1>Steel kettle</h1><form action="/cart/add" method="post"><span>$49.00</span>
        <p>${sentence('kettleDescription', 0)} ${sentence('kettleDescription', 1)}</p>
        <button type="submit">Add to cart</button></form></main>`,
    );
    expect(wrapped).toContain('kettleDescription sentence 1');
    const other = extract('', `<main><h1>Steel kettle</h1>${paragraphs('kettleText', 4)}${buyForm}</main>`);
    expect(other).toContain('kettleText sentence 3');
    expect(other).not.toContain('optionBlack');
  });
});
