import { withoutMarkdownSyntax } from './markdown-text';

describe('withoutMarkdownSyntax', () => {
  it('keeps the words of emphasis, links (their targets already gone), code and escapes', () => {
    expect(withoutMarkdownSyntax('Make labels, [possibly with **ingredients**]. Run `ls -l`.')).toBe(
      'Make labels, possibly with ingredients. Run ls -l.',
    );
    expect(withoutMarkdownSyntax('snake\\_case costs 5\\*3 \\[sic\\] ~~old~~')).toBe(
      'snake_case costs 5*3 [sic] old',
    );
  });

  it('drops block syntax: headings, quotes, bullets, numbers, tasks and table borders', () => {
    const markdown =
      '# Title\n\n> quoted\n\n-   one\n2.  two\n-   [x] done\n\n| a | b \\| c |\n| --- | :-: |';
    // Spaces are not scored (snippets compare whitespace runs as one space).
    expect(withoutMarkdownSyntax(markdown).replace(/ +/g, ' ')).toBe(
      'Title\n\nquoted\n\none\ntwo\ndone\n\na b | c \n',
    );
  });

  it('leaves fenced code as it is', () => {
    expect(withoutMarkdownSyntax('```js\nconst a = b * c; // [x]\n```\n**after**')).toBe(
      '\nconst a = b * c; // [x]\n\nafter',
    );
  });
});
