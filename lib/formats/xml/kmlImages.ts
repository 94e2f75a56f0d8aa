// The photo of a KMZ placemark: the first <img src> of its description that names a file inside
// the archive. The description is inert text here; only the start tags of <img> are looked at.

/** The src attribute inside one HTML start tag (the tag's text only, so the match stays linear). */
const SRC_ATTRIBUTE = /\ssrc\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>"']+))/i;
/** Most <img> tags of one description that are looked at. */
const MAX_IMG_TAGS = 100;

/** Minimal HTML attribute unescaping for file names in <img src>. */
function unescapeAttribute(value: string): string {
  if (value.indexOf('&') === -1) return value;
  return value
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&apos;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** What `find` answers for the first <img src> it knows (a media placeholder id), or undefined. */
export function descriptionImage(description: string, find: (src: string) => string | undefined): string | undefined {
  if (!/<img/i.test(description)) return undefined;
  const lower = description.toLowerCase();
  let at = 0;
  for (let tags = 0; tags < MAX_IMG_TAGS; tags++) {
    const start = lower.indexOf('<img', at);
    if (start === -1) return undefined;
    const end = lower.indexOf('>', start);
    if (end === -1) return undefined;
    at = end + 1;
    const match = SRC_ATTRIBUTE.exec(description.slice(start + 4, end));
    if (match === null) continue;
    const src = unescapeAttribute((match[1] ?? match[2] ?? match[3] ?? '').trim());
    if (src === '') continue;
    const id = find(src);
    if (id !== undefined) return id;
  }
  return undefined;
}
