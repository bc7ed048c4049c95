import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import { ArticlePicker, readabilityArticle } from './readability-candidate';

const paragraph = (n: number) =>
  `<p>Paragraph ${n} of the story, long enough for Readability to weigh it as the article's text, ` +
  `with a <a href="https://example.test/${n}">link</a>, a comma, and another clause to read.</p>`;

const page = `<!doctype html><html><head><title>Story</title></head><body>
  <nav><a href="https://example.test/">Home</a> <a href="https://example.test/news">News</a></nav>
  <div class="article-body">
    <h1>Story</h1><p class="byline">By Jane Doe, our correspondent</p>${[1, 2, 3].map(paragraph).join('')}
    <p style="display: none">Hidden by its style, a paragraph nobody sees on the page at all.</p>
    <p style="color: red; visibility: hidden">Invisible by its style, taking space and showing nothing.</p>
    <p hidden>Hidden by its attribute, a paragraph nobody sees on the page at all, long enough.</p>
    <p aria-hidden="true">Hidden from readers of the page by aria, a paragraph long enough to count.</p>
    <img aria-hidden="true" class="mwe-math-fallback-image" src="https://example.test/math.png" alt="x">
    <svg><a href="https://example.test/svg"><text>drawn link</text></a></svg>
    <p>Share this story <button type="button">Share</button> <input type="email" value="you@example.test"></p>
    ${[4, 5, 6].map(paragraph).join('')}
    <figure><img src="https://example.test/photo.jpg" alt="Photo"><figcaption>A caption</figcaption></figure>
  </div>
  <aside><h2>More</h2><ul><li><a href="https://example.test/a">Other story</a></li></ul></aside>
</body></html>`;

describe('readabilityArticle', () => {
  it("picks what Readability picks, at less cost on linkedom's DOM", () => {
    const ours = readabilityArticle(parseHTML(page).document);
    const theirs = new Readability(parseHTML(page).document, { keepClasses: true }).parse()?.content;
    expect(ours?.innerHTML).toBe(theirs);
    expect(ours?.textContent).toContain('Paragraph 6');
    expect(ours?.textContent).not.toContain('Jane Doe');
    expect(ours?.textContent).not.toContain('Hidden by its style');
    expect(ours?.textContent).not.toContain('Invisible by its style');
    expect(ours?.textContent).not.toContain('Hidden by its attribute');
    expect(ours?.querySelector('img.mwe-math-fallback-image')).not.toBeNull();
    expect(ours?.querySelector('button, input')).toBeNull();
  });

  it('finds the elements Readability made in upper case ("DIV") by their tag, as its own query does', () => {
    const { document } = parseHTML(page);
    const picker = new ArticlePicker(document, {});
    const made = document.createElement('DIV');
    const body = document.querySelector('.article-body')!;
    body.append(made);
    made.append(document.createElement('P'));
    for (const tags of [['div'], ['p'], ['div', 'p']])
      expect(picker._getAllNodesWithTag(body, tags)).toEqual([...body.querySelectorAll(tags.join(','))]);
    expect(picker._getAllNodesWithTag(body, ['div'])).toContain(made);
  });
});
