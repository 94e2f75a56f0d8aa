// A map's short name appears in its URL: lower-case ASCII letters, digits and single hyphens.
import slugify from 'slugify';

export const SHORT_NAME_MAX = 60;

/** The URL-safe form of a text ('' when it has no letter or digit that has one, e.g. "!!!" or "日本"). */
export function shortNameSlug(text: string): string {
  return slugify(text, { lower: true, strict: true, trim: true })
    .replace(/-{2,}/g, '-')
    .slice(0, SHORT_NAME_MAX)
    .replace(/^-+|-+$/g, '');
}

/** Turns a preference (or a title) into a URL-safe base; uniqueness per owner is the database's job. */
export function shortNameBase(preference: string | undefined, fallbackTitle?: string): string {
  for (const candidate of [preference, fallbackTitle]) {
    if (!candidate) continue;
    const slug = shortNameSlug(candidate);
    if (slug) return slug;
  }
  return 'map';
}
