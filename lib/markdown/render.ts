// A description's Markdown as HTML of the Markdown subset (./policy.ts): marked over bounded input
// (./bounds.ts) with a renderer that writes only the tags Markdown produces — raw HTML in the text
// is shown as text, a link or image to anything but http(s)/mailto keeps its text only, code
// blocks carry no class — and a last linear check that the HTML holds nothing else.
//
// Why not DOMPurify over jsdom, as before: jsdom alone took 3 s to parse the HTML of a
// 100,000-character table and DOMPurify 9 s in all (prose: 1.2 s), where marked takes 0.2 s
// (bench/README.md). Nothing in marked's output is left unescaped but the tags its renderer
// writes, so the check below is enough to hold the policy, in linear time.
import { Lexer, Parser, Renderer, marked, type MarkedOptions, type Token, type Tokens } from 'marked';
import { boundNesting, delimiterCount, MAX_DELIMITERS } from './bounds.js';
import { escapeHtml } from './plainText.js';
import { ALLOWED_ATTR, ALLOWED_TAGS, ALLOWED_URI_REGEXP, LINK_REL } from './policy.js';

/** marked's lexer, except that an inline run with too many emphasis delimiters stays text. */
class BoundedLexer extends Lexer {
  override inlineTokens(src: string, tokens: Token[] = []): Token[] {
    if (delimiterCount(src) <= MAX_DELIMITERS) return super.inlineTokens(src, tokens);
    tokens.push({ type: 'text', raw: src, text: src, escaped: false });
    return tokens;
  }
}

class SubsetRenderer extends Renderer {
  override html(token: Tokens.HTML | Tokens.Tag): string {
    return token.block ? `<p>${escapeHtml(token.text.trim())}</p>\n` : escapeHtml(token.text);
  }

  override link(token: Tokens.Link): string {
    if (!ALLOWED_URI_REGEXP.test(token.href)) return token.tokens?.length ? this.parser.parseInline(token.tokens) : escapeHtml(token.text);
    return super.link(token).replace(/^<a /, `<a target="_blank" rel="${LINK_REL}" `);
  }

  override image(token: Tokens.Image): string {
    return ALLOWED_URI_REGEXP.test(token.href) ? super.image(token) : escapeHtml(token.text);
  }

  override code(token: Tokens.Code): string {
    return super.code({ ...token, lang: undefined });
  }

  override checkbox({ checked }: Tokens.Checkbox): string {
    return checked ? '[x] ' : '[ ] ';
  }
}

const TAGS = new Set(ALLOWED_TAGS);
const ATTRIBUTES = new Set([...ALLOWED_ATTR, 'target', 'rel']);
const TAG = /<(\/?)([a-z0-9]+)((?:\s+[a-z]+(?:="[^"<>]*")?)*)\s*\/?>/g;
const ATTRIBUTE = /([a-z]+)(?:="[^"<>]*")?/g;

/** The HTML holds only the policy's tags and attributes (every other `<` escaped); else an error. */
function checkSubset(html: string): string {
  let tags = 0;
  for (const [, , name, attributes] of html.matchAll(TAG)) {
    tags += 1;
    if (!TAGS.has(name!)) throw new Error(`The rendered description holds a <${name}> tag.`);
    for (const [, attribute] of attributes!.matchAll(ATTRIBUTE)) {
      if (!ATTRIBUTES.has(attribute!)) throw new Error(`The rendered description holds a ${attribute} attribute.`);
    }
  }
  if (tags !== html.split('<').length - 1) throw new Error('The rendered description holds a < that is not one of its tags.');
  return html;
}

/**
 * The Markdown through marked over bounded input (./bounds.ts), with marked's own renderer (raw
 * HTML passed through: the caller sanitises, as the browser's popups do with DOMPurify) or the
 * subset's. No Node module is needed: the browser's popups use it too.
 */
export function boundedMarkdown(source: string, subset = false): string {
  const options: MarkedOptions = { ...marked.getDefaults(), gfm: true, breaks: true, async: false };
  if (subset) options.renderer = new SubsetRenderer(options);
  const tokens = new BoundedLexer(options).lex(boundNesting(source));
  return new Parser(options).parse(tokens);
}

/** The Markdown as HTML of the policy's subset ('' for blank text). Up to a few hundred ms of CPU: call it in the renderer's thread (./index.ts). */
export function markdownHtml(source: string): string {
  if (!source.trim()) return '';
  return checkSubset(boundedMarkdown(source, true));
}
