import { afterAll, describe, expect, it } from 'vitest';
import { descriptionRenderer, renderDescription } from '../../lib/markdown/index.js';
import { plainTextHtml } from '../../lib/markdown/plainText.js';
import { markdownHtml } from '../../lib/markdown/render.js';
import { WORST_DESCRIPTIONS } from '../support/worstDescriptions.js';

describe('markdownHtml', () => {
  it('renders Markdown: emphasis, lists, links opening in a new tab without the opener, marked nofollow and ugc', () => {
    const html = markdownHtml('Walks **near** the river\n\n- one\n- two\n\n[More](https://example.org/walks)');
    expect(html).toContain('<strong>near</strong>');
    expect(html).toContain('<li>one</li>');
    expect(html).toContain('<a target="_blank" rel="nofollow ugc noopener noreferrer" href="https://example.org/walks">More</a>');
  });

  it('keeps line breaks inside a paragraph, as people type them', () => {
    expect(markdownHtml('first line\nsecond line')).toBe('<p>first line<br>second line</p>\n');
  });

  it('shows raw HTML as text: no script, event handler, form or frame, and the text kept', () => {
    const html = markdownHtml('<script>alert(1)</script>Hi <img src=x onerror="alert(2)"> <form action="/x"><input name="a"></form><iframe src="https://evil.example"></iframe>\n\n[click](javascript:alert(3)) ![pic](javascript:alert(4)) [entity](javascript&#58;alert(5))');
    expect(html).not.toMatch(/<script|<img|<form|<input|<iframe|href=/i);
    expect(html).toContain('Hi');
    expect(html).toContain('&lt;script&gt;');
    expect(html).toContain('click');
  });

  it('keeps no data-*, id, class or style attribute, and links only to http, https and mailto (the map page takeover of issue 24)', () => {
    const html = markdownHtml(
      '<div data-map-geojson="/other/map/map.geojson" data-save-url="/maps/1/save" data-csrf="x" id="a" class="map-view" style="color:red">take over</div>\n\n```js\ncode\n```\n\n[rel](/relative) [proto](//evil.example) [mail](mailto:a@example.test) ![img](https://example.org/a.png)\n\n- [x] done',
    );
    expect(html).not.toMatch(/<div|<input|<[^>]*\s(?:data-[a-z-]+|id|class|style)=/);
    expect(html).toContain('take over');
    expect(html).toContain('<pre><code>code');
    expect(html).toContain('href="mailto:a@example.test"');
    expect(html).not.toContain('href="/relative"');
    expect(html).not.toContain('//evil.example"');
    expect(html).toContain('<img src="https://example.org/a.png" alt="img">');
  });

  it('answers nothing for a blank description', () => {
    expect(markdownHtml('  \n ')).toBe('');
  });

  it.each(Object.entries(WORST_DESCRIPTIONS))('renders %s without overflowing the stack', (_name, source) => {
    expect(source.length).toBeLessThanOrEqual(100_000);
    expect(markdownHtml(source).length).toBeGreaterThan(0);
  });

  it('shows a paragraph of too many emphasis delimiters as its text, and opens at most 8 containers a line', () => {
    const html = markdownHtml('_a'.repeat(50_000));
    expect(html).not.toContain('<em>');
    expect(html).toContain('_a_a_a');
    expect(markdownHtml('*a* and _b_')).toBe('<p><em>a</em> and <em>b</em></p>\n');
    expect(markdownHtml('>'.repeat(20)).match(/<blockquote>/g)).toHaveLength(8);
  });
});

describe('renderDescription (the renderer thread with its budget)', () => {
  const tight = descriptionRenderer(1);
  afterAll(() => tight.close());

  it('renders in its thread', async () => {
    expect(await renderDescription('A *walk*')).toEqual({ html: '<p>A <em>walk</em></p>\n', fallback: false });
    expect(await renderDescription(' ')).toEqual({ html: '', fallback: false });
  });

  it('renders every worst case in its thread, each once, without a fallback at the default budget', async () => {
    for (const source of Object.values(WORST_DESCRIPTIONS)) {
      const rendered = await renderDescription(source);
      expect(rendered.fallback).toBe(false);
    }
  });

  it('ends a render that overruns its budget and answers the escaped plain text in paragraphs, then renders the next', async () => {
    const source = `<b>bold</b> & *more*\n\n${'Some *words* and a [link](https://example.com) here.\n'.repeat(1_500)}`;
    const [first, second] = await Promise.all([tight.render(source), tight.render(source)]);
    for (const rendered of [first, second]) {
      expect(rendered.fallback).toBe(true);
      expect(rendered.html).toBe(plainTextHtml(source));
      expect(rendered.html.startsWith('<p>&lt;b&gt;bold&lt;/b&gt; &amp; *more*</p>')).toBe(true);
    }
  });
});
