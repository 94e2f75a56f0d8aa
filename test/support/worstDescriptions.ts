// The descriptions of most work for the Markdown parser that the API accepts (100,000
// characters): the unit tests, the map page's integration test and `npm run bench -- description`
// render them (issue 24, defect 1: `_a` × 50,000 once held the map page 11 s and every other request with it).
export const WORST_DESCRIPTIONS: Record<string, string> = {
  'underscores (_a × 50,000)': '_a'.repeat(50_000),
  'stars (*a × 50,000)': '*a'.repeat(50_000),
  'strong runs (**a × 33,333)': '**a'.repeat(33_333),
  'blockquotes (> × 100,000)': '>'.repeat(100_000),
  'nested list markers (* 1.  × 20,000)': '* 1. '.repeat(20_000),
  'blockquoted lists (> - × 25,000)': '> - '.repeat(25_000),
  'deep list indentation (3,000 lines)': Array.from({ length: 3_000 }, (_, i) => `${' '.repeat(i * 2)}- a`).join('\n').slice(0, 100_000),
  'link runs ([a](http://x) × 7,000)': '[a](http://x)'.repeat(7_000),
  'open brackets ([ × 100,000)': '['.repeat(100_000),
};
