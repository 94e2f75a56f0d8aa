import { describe, expect, it } from 'vitest';
import { markdownHtml } from '../../lib/markdown.js';

describe('markdownHtml', () => {
  it('renders Markdown: emphasis, lists, links opening in a new tab without the opener', () => {
    const html = markdownHtml('Walks **near** the river\n\n- one\n- two\n\n[More](https://example.org/walks)');
    expect(html).toContain('<strong>near</strong>');
    expect(html).toContain('<li>one</li>');
    expect(html).toContain('<a href="https://example.org/walks" target="_blank" rel="noopener noreferrer nofollow">More</a>');
  });

  it('keeps line breaks inside a paragraph, as people type them', () => {
    expect(markdownHtml('first line\nsecond line')).toBe('<p>first line<br>second line</p>\n');
  });

  it('removes scripts, event handlers, javascript: links and forms, and keeps the text', () => {
    const html = markdownHtml('<script>alert(1)</script>Hi <img src=x onerror="alert(2)"> <form action="/x"><input name="a"></form><iframe src="https://evil.example"></iframe>\n\n[click](javascript:alert(3))');
    expect(html).not.toMatch(/<script|onerror|javascript:|<form|<input|<iframe/i);
    expect(html).toContain('Hi');
    expect(html).toContain('click');
  });

  it('answers nothing for a blank description', () => {
    expect(markdownHtml('  \n ')).toBe('');
  });
});
