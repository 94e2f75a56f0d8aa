// Pieces of a file quoted in messages and skip reasons: short, and never cut inside a
// surrogate pair (a lone surrogate is not storable text, for example in PostgreSQL jsonb).

/** `text` cut to at most `max` UTF-16 units, with "…" when cut. */
export function shorten(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${text.slice(0, end)}…`;
}
