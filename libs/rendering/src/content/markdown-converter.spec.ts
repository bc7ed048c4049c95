import { escapeMarkdown, markdownUrl } from './markdown-converter';

describe('escapeMarkdown', () => {
  it.each([
    ['plain text, a-b, a=b, 1.5, #hash, a>b', 'plain text, a-b, a=b, 1.5, #hash, a>b'],
    ['back\\slash', 'back\\\\slash'],
    ['2 * 3', '2 \\* 3'],
    ['- not a list', '\\- not a list'],
    ['+ not a list', '\\+ not a list'],
    ['== not a heading', '\\== not a heading'],
    ['## not a heading', '\\## not a heading'],
    ['`code`', '\\`code\\`'],
    ['~~~ not a fence', '\\~~~ not a fence'],
    ['[not a link]', '\\[not a link\\]'],
    ['> not a quote', '\\> not a quote'],
    ['snake_case', 'snake\\_case'],
    ['1984. not a list', '1984\\. not a list'],
  ])('escapes %j as %j', (text, escaped) => {
    expect(escapeMarkdown(text)).toBe(escaped);
  });
});

describe('markdownUrl', () => {
  it('percent-encodes what would end a destination early and leaves the rest', () => {
    expect(markdownUrl('https://x.test/a (b)/<c>?q=1&r=%20\t')).toBe(
      'https://x.test/a%20%28b%29/%3Cc%3E?q=1&r=%20%09',
    );
  });

  it('encodes a space beyond ASCII as its UTF-8 bytes, as a URL names it', () => {
    expect(markdownUrl('https://x.test/a\u00a0b\u3000c')).toBe('https://x.test/a%C2%A0b%E3%80%80c');
  });
});
