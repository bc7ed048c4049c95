import { parseHTML } from 'linkedom';
import { removeChrome } from './boilerplate';
import { extractMainContent, jsonLdNodes, readPageProfile } from './index';
import { measure } from './text-stats';

const paragraphs = (topic: string, count: number) =>
  Array.from(
    { length: count },
    (_, i) => `<p>${topic} sentence ${i} carries enough words to read as real prose for the extractor.</p>`,
  ).join('');

const ARTICLE_LD = `<script type="application/ld+json">${JSON.stringify({ '@type': 'BlogPosting' })}</script>`;

function extract(body: string, head = ''): string {
  const { document } = parseHTML(`<!doctype html><html><head>${head}</head><body>${body}</body></html>`);
  const jsonLd = jsonLdNodes(document);
  return (extractMainContent(document, readPageProfile(document, jsonLd), jsonLd).textContent ?? '').replace(
    /\s+/g,
    ' ',
  );
}

const links = (topic: string) =>
  `<ul>${[1, 2, 3].map((i) => `<li><a href="/${topic}/${i}">${topic} story number ${i}</a></li>`).join('')}</ul>`;

describe('labelled tails', () => {
  it('drops what follows a "related" label that is not a heading, in any of the corpora languages', () => {
    for (const label of [
      'Auch interessant:',
      'You might also like',
      'Articles similaires',
      'Zum Weiterlesen:',
      'Czytaj też',
      'Möchten Sie den Artikel teilen?',
      'Weitere Beiträge zum Thema',
      'Weiterführender Link',
      'Audios et vidéos sur le sujet',
      'Wie bewerten Sie diesen Artikel?',
      'Vorschau auf den nächsten Artikel',
      'Vea también:',
    ]) {
      const text = extract(`<div class="entry">${paragraphs('bodyText', 12)}
        <p><strong>${label}</strong></p>${links('elsewhere')}</div>`);
      expect(text).toContain('bodyText sentence 11');
      expect(text).not.toContain(label);
      expect(text).not.toContain('elsewhere story');
    }
  });

  it('drops a line among the paragraphs that opens with such a label and links to another story', () => {
    const text = extract(`<div class="entry">${paragraphs('bodyText', 6)}
      <p>Le puede interesar: <a href="/other">Another story with a long headline of its own</a></p>
      <p>Read also: the instructions below, which this article explains <a href="/x">here</a>.</p>
      ${paragraphs('moreText', 6)}</div>`);
    expect(text).toContain('moreText sentence 5');
    expect(text).not.toContain('Another story');
    expect(text).toContain('the instructions below');
  });

  it('drops a comments section below an article, labelled by a heading', () => {
    const text = extract(
      `<article>${paragraphs('bodyText', 12)}<h3>Leave a Reply</h3><p>Your email address is never shown.</p></article>`,
      ARTICLE_LD,
    );
    expect(text).toContain('bodyText sentence 11');
    expect(text).not.toContain('Leave a Reply');
    expect(text).not.toContain('email address');
  });

  it('drops the end of comments on an article: none yet, closed, or a prompt to write one', () => {
    for (const label of ['Keine Kommentare', 'Kommentare geschlossen', 'Kommentieren', 'No comments']) {
      const text = extract(
        `<article>${paragraphs('bodyText', 12)}<p>${label}</p><p>Your email address is never shown.</p></article>`,
        ARTICLE_LD,
      );
      expect(text).toContain('bodyText sentence 11');
      expect(text).not.toContain(label);
      expect(text).not.toContain('email address');
    }
  });

  it('keeps what follows a label when that is much of the page: the label opens the content', () => {
    const text = extract(`<div class="entry"><h2>Related topics</h2>${paragraphs('bodyText', 12)}</div>`);
    expect(text).toContain('Related topics');
    expect(text).toContain('bodyText sentence 11');
  });

  it('keeps a comments label on a page that does not say it is an article', () => {
    const text = extract(
      `<div class="entry">${paragraphs('bodyText', 12)}<h3>Comments</h3>${paragraphs('reply', 2)}</div>`,
    );
    expect(text).toContain('reply sentence 1');
  });
});

describe('credits and bylines', () => {
  it("drops a picture's credit line, and an article's date and author by their class words", () => {
    const text = extract(
      `<article><div class="entry-meta"><span class="post-date">5. Mai 2020</span>
      <span class="author">Erika Muster</span></div>${paragraphs('bodyText', 12)}
      <figure><img src="/a.jpg"><figcaption>Foto: Agentur Beispiel</figcaption></figure>
      <p>© Beispielbild GmbH</p><p>Titelbild: Archiv Muster</p><p>Crédits photos : Studio Exemple</p>
      ${paragraphs('moreText', 4)}</article>`,
      ARTICLE_LD,
    );
    expect(text).toContain('moreText sentence 3');
    for (const noise of [
      '5. Mai 2020',
      'Erika Muster',
      'Agentur Beispiel',
      'Beispielbild',
      'Archiv Muster',
      'Studio Exemple',
    ])
      expect(text).not.toContain(noise);
  });

  it('drops a reading-time line and a Spanish "Lea también:" link line, keeping prose about minutes', () => {
    const text = extract(
      `<article><p>5 min read</p><p>Lesezeit: 3 Minuten</p>${paragraphs('bodyText', 8)}
      <p>Lea también: <a href="/otra">Otra noticia con un titular largo</a></p>
      <p>The dough rests 5 minutes before baking.</p>${paragraphs('moreText', 4)}</article>`,
      ARTICLE_LD,
    );
    expect(text).toContain('moreText sentence 3');
    expect(text).toContain('rests 5 minutes');
    for (const noise of ['5 min read', 'Lesezeit', 'Otra noticia']) expect(text).not.toContain(noise);
  });

  it('drops an advertisement label and a link back on lines of their own, not a sentence naming them', () => {
    const text = extract(
      `<article>${paragraphs('bodyText', 6)}<p>- Anzeige -</p><div>Advertisement</div>
      <p>The Anzeige ran in three papers, and advertisement rules apply.</p>
      ${paragraphs('moreText', 4)}<p><a href="/list">Zurück zur Übersicht</a></p><p>Press ? to show this help</p><div>Gefällt mir Wird geladen...</div></article>`,
      ARTICLE_LD,
    );
    expect(text).toContain('moreText sentence 3');
    expect(text).toContain('The Anzeige ran');
    for (const noise of ['- Anzeige -', 'Advertisement', 'Zurück', 'Press ?', 'Wird geladen'])
      expect(text).not.toContain(noise);
  });

  it('keeps a section title classed as a header, and drops a page header classed so', () => {
    const { document } = parseHTML(`<!doctype html><html><body><div class="site-header"><a href="/">Logo</a>
      siteTagline for every page</div><div class="entry">${paragraphs('bodyText', 12)}
      <div class="module-header"><h2>Sectionheading</h2></div>${paragraphs('moreText', 4)}</div></body></html>`);
    removeChrome(document.body, measure(document.body).of, 'other');
    const text = document.body.textContent ?? '';
    expect(text).toContain('Sectionheading');
    expect(text).not.toContain('siteTagline');
  });

  it("keeps a listing's dates and authors: they describe each entry", () => {
    const entries = Array.from(
      { length: 6 },
      (
        _,
        i,
      ) => `<div class="entry"><h3><a href="/e/${i}">Entry ${i} title</a></h3><span class="date">May ${i + 1}</span>
        <span class="author">writer${i}</span><p>entry${i} summary carries enough words to read as prose.</p></div>`,
    ).join('');
    const text = extract(`<div class="list">${entries}</div>`);
    expect(text).toContain('writer5');
    expect(text).toContain('May 6');
  });
});

describe('filing lines and comment forms', () => {
  it("drops a post's filing lines and what is left of its comment form", () => {
    const text = extract(`<div class="entry">${paragraphs('bodyText', 10)}
      <p>This entry was posted in News, Allgemein. Bookmark the permalink.</p><p>Kategorie: Allgemein</p>
      <p>Sie müssen sich einloggen, um sich an einer Diskussion beteiligen zu können.</p></div>`);
    expect(text).toContain('bodyText sentence 9');
    for (const line of ['This entry was posted', 'Kategorie', 'einloggen']) expect(text).not.toContain(line);
  });

  it('drops an empty thread and its form below a page that does not say it is an article', () => {
    const text = extract(`<div class="entry">${paragraphs('bodyText', 12)}<h3>Bisher keine Kommentare</h3>
      <p>Name (erforderlich)</p><p>E-Mail (wird nicht veröffentlicht)</p></div>`);
    expect(text).toContain('bodyText sentence 11');
    expect(text).not.toContain('Kommentare');
    expect(text).not.toContain('erforderlich');
  });
});

describe('captions', () => {
  it("drops a figure's caption, but keeps a gallery whose captions are its text", () => {
    const figure = (i: number) =>
      `<figure><img src="/p${i}.jpg"><figcaption>Pumps at sunset number ${i}. Photo: Someone/Agency</figcaption></figure>`;
    const text = extract(
      `<div class="entry">${paragraphs('bodyText', 4)}${figure(1)}${paragraphs('moreText', 4)}</div>`,
    );
    expect(text).toContain('moreText sentence 3');
    expect(text).not.toContain('Pumps at sunset');
    const credited =
      extract(`<div class="entry">${paragraphs('bodyText', 4)}<p>The ermine in its winter coat. (someone / iStock.com)</p>
      <p>Rainy days ahead. Foto: Andina</p><p>Our photo shows a tale of two cities. It was taken in spring by a reader.</p>${paragraphs('moreText', 4)}</div>`);
    expect(credited).not.toContain('ermine');
    expect(credited).not.toContain('Rainy days');
    expect(credited).toContain('Our photo shows a tale of two cities');
    const gallery = extract(
      `<div class="entry"><p>Our trip in pictures.</p>${[1, 2, 3, 4, 5].map(figure).join('')}</div>`,
    );
    expect(gallery).toContain('Pumps at sunset number 5');
  });
});

describe('calls to readers', () => {
  it("drops a publisher's call to get its news, follow it or subscribe, but keeps a text about apps", () => {
    const text = extract(`<div class="entry">${paragraphs('bodyText', 6)}
      <p>Apps on a phone show the latest news from many sources; follow these steps shared on Twitter to pick some.</p>
      <p>For the latest stories and breaking news updates download the Example apps for iOS and Android.</p>
      <p>Subscribe now to our print edition for the full story.</p>
      <p>Follow The Example on Twitter and Instagram @Example.</p>
      <p>¿Ya sabías que tenemos canal de Telegram? Únete desde tu celular.</p>
      <p>Schauen Sie mal in unseren Musiknewsletter!</p>
      <p>Get the best threads of the week sent straight to your inbox!</p></div>`);
    expect(text).toContain('bodyText sentence 5');
    expect(text).toContain('Apps on a phone show the latest news');
    expect(text).not.toMatch(
      /download the Example apps|Subscribe now|Follow The Example|Telegram|Musiknewsletter|your inbox/,
    );
  });
});

describe('template lines', () => {
  it('drops a date on a line of its own, not one inside a sentence nor the dates of a listing', () => {
    const text =
      extract(`<div class="entry"><p>Publiziert: 03.04.2020, 12:35</p><div><span>16 marca 2021</span></div>
      <p>On <span>July 4, 2025</span>, the bill was signed.</p>${paragraphs('bodyText', 6)}</div>`);
    expect(text).toContain('bodyText sentence 5');
    expect(text).toContain('On July 4, 2025, the bill was signed.');
    expect(text).not.toMatch(/Publiziert|16 marca 2021/);
    const cards = [1, 2, 3, 4].map((i) => `<div><h3>Story ${i} of the week</h3><p>${i}.03.2024</p></div>`);
    expect(extract(`<div class="entry">${paragraphs('intro', 2)}${cards.join('')}</div>`)).toContain(
      '4.03.2024',
    );
  });

  it("drops an embed's consent placeholder", () => {
    const text =
      extract(`<div class="entry">${paragraphs('bodyText', 6)}<div class="embed"><p>Externer Inhalt</p>
      <p>Ich bin damit einverstanden, dass mir externe Inhalte angezeigt werden.</p></div>
      <p>Wir respektieren deine Privatsphäre und stellen ohne dein Einverständnis keine Verbindung her.</p>${paragraphs('moreText', 2)}</div>`);
    expect(text).toContain('moreText sentence 1');
    expect(text).not.toMatch(/Externer Inhalt|einverstanden|Privatsphäre/);
  });

  it('drops a server error and a cookie notice left in the text, not a sentence about cookies', () => {
    const text =
      extract(`<div class="entry"><p>Warning: Creating default object in /www/htdocs/classes.php on line 407</p>
      ${paragraphs('bodyText', 6)}<p>Cookies are small files a browser keeps for a site.</p>
      <p>Durch die weitere Nutzung der Seite stimmst du der Verwendung von Cookies zu.</p></div>`);
    expect(text).toContain('Cookies are small files');
    expect(text).not.toMatch(/on line 407|stimmst du/);
  });

  it('drops a related label whose links went, and keeps the text that follows it', () => {
    const text = extract(
      `<div class="entry">${paragraphs('bodyText', 4)}<h3>Related Coverage</h3>${paragraphs('moreText', 6)}</div>`,
    );
    expect(text).toContain('moreText sentence 5');
    expect(text).not.toContain('Related Coverage');
  });
});

describe('lead', () => {
  it("puts back an article's lead that stands between its headline and its body", () => {
    const head = `<div class="head"><h1>A headline of the story</h1><div class="article-intro">
      <p>The lead says in two sentences what the story tells. It is its first paragraph.</p></div></div>`;
    const body = `<div class="body">${paragraphs('bodyText', 12)}</div>`;
    const text = extract(`<div class="page">${head}${body}</div>`, ARTICLE_LD);
    expect(text).toContain('bodyText sentence 11');
    expect(text).toContain('The lead says in two sentences');
  });
});

describe('lead set as a heading', () => {
  it("puts back an article's lead written as a long subheading in a page builder's row", () => {
    const lead =
      'Late on Sunday and with dismay the association reacted to the attack of yesterday, so the federation said in a short statement published earlier today.';
    const row = (inner: string) =>
      `<div class="tdc-row"><div class="col"><div class="wrap">${inner}</div></div></div>`;
    const text = extract(
      `<div class="page">${row('<h1>A headline of the story</h1>')}${row(`<div class="text"><h2>${lead}</h2></div>`)}
      ${row(`<div class="text">${paragraphs('bodyText', 12)}</div>`)}</div>`,
      ARTICLE_LD,
    );
    expect(text).toContain('bodyText sentence 11');
    expect(text).toContain('in a short statement published earlier today.');
  });
});

describe('copies of a block', () => {
  it('keeps one copy of a block laid out twice, but repeated code, table and list lines all', () => {
    const code = '<pre><code>curl -u key: https://api.example.test/v1/charges -d amount=1099</code></pre>';
    const plan = '<li>Unlimited support by email, phone and chat on every working day</li>';
    const text = extract(`<div class="page"><div class="desktop">${paragraphs('intro', 4)}</div>
      <div class="phone">${paragraphs('intro', 4)}</div>${paragraphs('bodyText', 6)}${code}<p>Then again:</p>${code}${paragraphs('refrain', 1)}${paragraphs('refrain', 1)}
      <ul class="basic">${plan}</ul><ul class="premium">${plan}</ul></div>`);
    expect(text.split('intro sentence 3').length).toBe(2);
    expect(text.split('curl -u key').length).toBe(3);
    expect(text.split('Unlimited support').length).toBe(3);
    expect(text.split('refrain sentence 0').length).toBe(3);
  });
});
