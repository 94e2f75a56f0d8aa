// Markdown written by people (a map's description) as safe HTML for the server's pages: marked,
// then DOMPurify over a jsdom window (no script, no event handler, no javascript: URL survives).
// Links open in a new tab without handing it the page (rel="noopener noreferrer nofollow").
import createDOMPurify from 'dompurify';
import { JSDOM } from 'jsdom';
import { marked } from 'marked';

let purifier: ReturnType<typeof createDOMPurify> | undefined;

function purify(): ReturnType<typeof createDOMPurify> {
  if (purifier) return purifier;
  const { window } = new JSDOM('');
  const made = createDOMPurify(window as unknown as Parameters<typeof createDOMPurify>[0]);
  made.addHook('afterSanitizeAttributes', (node) => {
    if (node.tagName === 'A' && node.getAttribute('href')) {
      node.setAttribute('target', '_blank');
      node.setAttribute('rel', 'noopener noreferrer nofollow');
    }
  });
  purifier = made;
  return made;
}

/** The Markdown as sanitised HTML ('' for blank text). Raw HTML in it is sanitised, not dropped. */
export function markdownHtml(source: string): string {
  if (!source.trim()) return '';
  const html = marked.parse(source, { async: false, gfm: true, breaks: true }) as string;
  return purify().sanitize(html, { FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select'], ADD_ATTR: ['target'] });
}
