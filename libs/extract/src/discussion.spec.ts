import { parseHTML } from 'linkedom';
import { extractMainContent, jsonLdNodes, readPageProfile } from './index';

const sentence = (topic: string, i: number) =>
  `${topic} sentence ${i} carries enough words to read as real prose for the extractor to weigh.`;

const ld = (type: string) =>
  `<script type="application/ld+json">${JSON.stringify({ '@type': type })}</script>`;
const THREAD_LD = ld('DiscussionForumPosting');

function extract(body: string, head = THREAD_LD): string {
  const { document } = parseHTML(`<!doctype html><html><head>${head}</head><body>${body}</body></html>`);
  const jsonLd = jsonLdNodes(document);
  return (extractMainContent(document, readPageProfile(document, jsonLd), jsonLd).textContent ?? '').replace(
    /\s+/g,
    ' ',
  );
}

const post = (i: number, text: string, extra = '') =>
  `<div class="topic-post"><div class="author"><a href="/u/${i}">user${i}</a></div>${extra}<div class="cooked">${text}</div></div>`;

describe('threads', () => {
  it('keeps every post when one long post holds most of the text', () => {
    const log = Array.from({ length: 40 }, (_, i) => `<p>${sentence('pastedLog', i)}</p>`).join('');
    const posts = [
      post(0, `<p>${sentence('question', 0)}</p>`),
      post(1, log),
      post(2, `<p>${sentence('answer', 2)}</p>`),
    ];
    const text = extract(`<div class="thread">${posts.join('')}</div>`);
    for (const kept of ['question sentence 0', 'pastedLog sentence 39', 'answer sentence 2'])
      expect(text).toContain(kept);
  });

  it("keeps a story's comments when they are all its text (a link aggregator's story)", () => {
    const comments = Array.from(
      { length: 4 },
      (_, i) =>
        `<li class="comment"><a href="/u/${i}">user${i}</a><p>${sentence(`reply${i}`, i)} ${sentence('more', i)}</p></li>`,
    ).join('');
    const text = extract(
      `<div class="story"><a href="https://elsewhere.test/post">A story linked from elsewhere</a></div><ol class="comments">${comments}</ol>`,
      ld('NewsArticle'),
    );
    for (let i = 0; i < 4; i++) expect(text).toContain(`reply${i} sentence`);
  });

  it("drops each post's author facts, in label and value pairs or lines, not the posts", () => {
    const facts = (i: number) =>
      `<div class="user-extras"><dl><dt>Joined</dt><dd>Jun ${i + 1}, 2024</dd></dl><dl><dt>Messages</dt><dd>2${i}</dd></dl>
       <div>Location: Town${i}</div></div>`;
    const posts = [0, 1, 2].map((i) =>
      post(i, `<p>${sentence(`post${i}`, i)}</p>${i === 1 ? '<p>Price: around 1 euros</p>' : ''}`, facts(i)),
    );
    const text = extract(`<div class="thread">${posts.join('')}</div>`);
    for (let i = 0; i < 3; i++) expect(text).toContain(`post${i} sentence`);
    for (const fact of ['Joined', 'Messages', 'Location:', 'Town1']) expect(text).not.toContain(fact);
    // A label that does not repeat under three posts is the post's own.
    expect(text).toContain('Price: around 1 euros');
  });

  it("drops a signature holding a fifth of a short thread's text", () => {
    const signature = `<div class="entry__signature"><p>${sentence('mySignature', 1)}</p></div>`;
    const texts = [0, 1, 2].map((i) => `<p>${sentence('shortPost', i)}</p>`);
    const text = extract(`<div class="thread">${post(0, texts.join('') + signature)}</div>`);
    expect(text).toContain('shortPost sentence 0');
    expect(text).not.toContain('mySignature');
  });

  it('drops the similar threads below a thread', () => {
    const posts = [0, 1, 2, 3].map((i) => post(i, `<p>${sentence(`post${i}`, i)}</p>`));
    const similar = `<h3>Similar threads</h3><ul>${[1, 2].map((i) => `<li><a href="/t/${i}">other thread ${i}</a> Replies 4</li>`).join('')}</ul>`;
    const text = extract(`<div class="thread">${posts.join('')}${similar}</div>`);
    expect(text).toContain('post3 sentence');
    expect(text).not.toContain('other thread');
  });

  it("drops each post's number, votes and buttons, lines of their own", () => {
    const controls = (i: number) =>
      `<div class="post-controls"><a href="/p/${i}">#${i + 1}</a></div><div class="votes">1${i}</div>
       <div class="actions"><a href="/r">Reply with quote</a> </div><div class="expand">Click to expand...</div>`;
    const posts = [0, 1, 2].map((i) => post(i, `<p>${sentence(`post${i}`, i)}</p>`, controls(i)));
    const text = extract(`<div class="thread">${posts.join('')}</div>`);
    for (let i = 0; i < 3; i++) expect(text).toContain(`post${i} sentence`);
    for (const control of ['#2', 'Reply with quote', 'Click to expand', '11'])
      expect(text).not.toContain(control);
  });

  it("drops each post's controls, its author's status and the latest posts on a thread that says nothing of itself", () => {
    const controls = (i: number) =>
      `<div class="rank">Senior Member</div><div class="status">Offline</div><a href="/u/${i}">View Profile</a>
       <div class="post-links"><a href="/p/${i}">Permalink</a></div><div class="reactions">${i + 2} likes</div>
       <div class="stats"><div>Joined</div><div>Posts: 1,23${i}</div></div>
       <div class="role">Moderator</div><div class="edit">Last edited: Jul ${i + 1}, 2024</div>`;
    const posts = [0, 1, 2].map((i) => post(i, `<p>${sentence(`post${i}`, i)}</p>`, controls(i)));
    const latest = `<h3>Latest posts</h3><ul><li><a href="/t/9">otherThread</a> started by user9, who asks about the same router settings again</li></ul>`;
    const text = extract(`<div class="thread">${posts.join('')}${latest}</div>`, '');
    for (let i = 0; i < 3; i++) expect(text).toContain(`post${i} sentence`);
    const noise = ['Senior Member', 'Offline', 'View Profile', 'Permalink', '3 likes', 'Joined', 'Posts:'];
    noise.push('Moderator', 'Last edited');
    for (const control of [...noise, 'otherThread']) expect(text).not.toContain(control);
  });
});
