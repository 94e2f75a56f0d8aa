// Place names and queries folded to one form before they are compared, so that any case and
// accents or none find the same place: "zurich", "ZÜRICH" and "Zürich" are all `zurich`,
// "Saint-Étienne" and "saint etienne" both `saint etienne`. Pure (the front end may import it).

/** Letters that no Unicode decomposition takes apart, written as they are typed without them. */
const LETTERS: Record<string, string> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  ł: 'l',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ı: 'i',
  ħ: 'h',
  ŧ: 't',
  ŋ: 'n',
  ĸ: 'k',
  ſ: 's',
};
const LETTER = new RegExp(`[${Object.keys(LETTERS).join('')}]`, 'g');

/**
 * Apostrophes and the transliterations' ʻayn and hamza marks ("Hawaiʻi", "Ma‘arrat", "N'Djamena")
 * join what is around them: people type them, or not, or another one.
 */
const JOINING = /['`´\u2018\u2019\u02b9-\u02bf\u02c8]/g;

/**
 * Lower case, accents and other marks taken off, apostrophes dropped, every other run of
 * characters that are not letters or digits (spaces, hyphens, dots, commas) one space, trimmed.
 */
export function foldName(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(LETTER, (letter) => LETTERS[letter]!)
    .replace(JOINING, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}
