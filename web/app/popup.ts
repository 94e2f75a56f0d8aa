// A feature's popup: title, Markdown description (marked over bounded input, as on the server:
// lib/markdown/render.ts, then DOMPurify to the descriptions'
// subset of lib/markdown/policy.ts: no script, handler, data-*, id, class or style, links to
// http(s) and mailto only; raw HTML of KML descriptions is kept within that subset), link, photo
// (the responsive size for the screen, its average colour while it loads, the tip in its tip
// colour), and media from `media_url` (YouTube and Vimeo as a player, other addresses as a link).
import DOMPurify from 'dompurify';
import { LINK_REL, PURIFY_CONFIG } from '../../lib/markdown/policy.js';
import { boundedMarkdown } from '../../lib/markdown/render.js';
import { MEDIA_ID } from '../../lib/mediaId.js';
import type { MapFeature } from './mapFeature.js';

// The descriptions' policy (lib/markdown/policy.ts): the Markdown subset, links in a new tab, marked as the visitor's.
DOMPurify.addHook('afterSanitizeAttributes', (node) => {
  if (node.tagName === 'A' && node.getAttribute('href')) {
    node.setAttribute('target', '_blank');
    node.setAttribute('rel', LINK_REL);
  }
});

const text = (value: unknown): string => (typeof value === 'string' ? value.trim() : '');
const webAddress = (value: string): string | undefined => {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : undefined;
  } catch {
    return undefined;
  }
};

/** The player address of a YouTube or Vimeo page, or undefined. */
export function playerOf(address: string): string | undefined {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return undefined;
  }
  const host = url.hostname.replace(/^www\.|^m\./, '');
  const youtube = host === 'youtu.be' ? url.pathname.slice(1) : host === 'youtube.com' ? (url.searchParams.get('v') ?? /^\/(?:embed|shorts)\/([\w-]+)/.exec(url.pathname)?.[1]) : undefined;
  if (youtube && /^[\w-]{6,20}$/.test(youtube)) return `https://www.youtube-nocookie.com/embed/${youtube}`;
  const vimeo = host === 'vimeo.com' ? /^\/(\d+)/.exec(url.pathname)?.[1] : undefined;
  return vimeo ? `https://player.vimeo.com/video/${vimeo}` : undefined;
}

function element<K extends keyof HTMLElementTagNameMap>(tag: K, attributes: Record<string, string> = {}, content?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  if (content !== undefined) node.textContent = content;
  return node;
}

function paragraphWith(child: HTMLElement): HTMLParagraphElement {
  const paragraph = element('p');
  paragraph.append(child);
  return paragraph;
}

export function popupContent(feature: MapFeature): HTMLElement {
  const properties = feature.properties ?? {};
  const box = element('div', { class: 'popup' });
  const image = properties.image as { id?: unknown; avg_color?: unknown; tip_color?: unknown } | undefined;
  if (image && typeof image.id === 'string' && MEDIA_ID.test(image.id)) {
    const size = window.devicePixelRatio > 1 ? 's1024' : 's512';
    const photo = element('img', { src: `/images/${image.id}/${size}`, alt: text(properties.title) || 'Photo', loading: 'lazy' });
    if (typeof image.avg_color === 'string' && /^#[0-9a-f]{6}$/i.test(image.avg_color)) photo.style.background = image.avg_color;
    box.append(photo);
    if (typeof image.tip_color === 'string' && /^#[0-9a-f]{6}$/i.test(image.tip_color)) box.style.setProperty('--tip-color', image.tip_color);
  }
  box.append(element('h3', {}, text(properties.title) || 'Untitled'));
  const description = text(properties.description);
  if (description) {
    const body = element('div', { class: 'description' });
    body.innerHTML = DOMPurify.sanitize(boundedMarkdown(description), PURIFY_CONFIG);
    box.append(body);
  }
  const link = webAddress(text(properties.url));
  if (link) box.append(paragraphWith(element('a', { href: link, rel: 'noopener noreferrer', target: '_blank' }, link)));
  const media = text(properties.media_url);
  if (media) {
    const player = playerOf(media);
    if (player) {
      box.append(element('iframe', { src: player, title: `Video: ${text(properties.title) || 'media'}`, width: '288', height: '162', allow: 'fullscreen; picture-in-picture', loading: 'lazy' }));
    } else {
      const address = webAddress(media);
      if (address) box.append(paragraphWith(element('a', { href: address, rel: 'noopener noreferrer', target: '_blank' }, address)));
    }
  }
  return box;
}
