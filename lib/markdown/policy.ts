// What a description (and an item's description in a popup) may hold once sanitised: the tags
// Markdown produces and nothing else — no data-*, id, class or style attribute (a description
// sits on the map page above the page's own elements, and must not be mistaken for them), links
// to http, https and mailto only, rel="nofollow ugc noopener noreferrer". Plain data, so the
// browser's popup (web/app/popup.ts) and the server's renderer (./render.ts) apply one policy.

export const ALLOWED_TAGS = [
  'p', 'br', 'hr', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'strong', 'em', 'del', 'code', 'pre', 'blockquote',
  'ul', 'ol', 'li', 'a', 'img', 'table', 'thead', 'tbody', 'tr', 'th', 'td',
  // Not written by marked, but common in the HTML of imported KML descriptions (popups keep them).
  'b', 'i', 'u', 's', 'sub', 'sup',
];

/** `start` of an ordered list, `align` of a table cell, and what links and images need. */
export const ALLOWED_ATTR = ['href', 'title', 'src', 'alt', 'start', 'align'];

/** Links and images: absolute http(s) and mailto addresses only (no javascript:, data:, relative or protocol-relative ones). */
export const ALLOWED_URI_REGEXP = /^(?:https?:\/\/|mailto:)/i;

export const LINK_REL = 'nofollow ugc noopener noreferrer';

/** DOMPurify's configuration for the policy (the same object shape in the browser and on the server). */
export const PURIFY_CONFIG = {
  ALLOWED_TAGS,
  ALLOWED_ATTR,
  ALLOWED_URI_REGEXP,
  ALLOW_DATA_ATTR: false,
  ALLOW_ARIA_ATTR: false,
  KEEP_CONTENT: true,
};
