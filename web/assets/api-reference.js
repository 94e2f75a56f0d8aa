// Accessibility fixes of Redoc's markup on /docs/api (api/web/apiReference.ts), applied as Redoc
// renders (axe-core, WCAG 2.1 AA, found both in Redoc 2.5.4):
// - its menu items carry an aria-label without the words they show ("post", a tag's operations),
//   so speech users cannot say what they see (2.5.3): the label goes, the name comes from the text;
// - its code samples scroll sideways in <pre> elements a keyboard cannot reach (2.1.1): each
//   becomes a Tab stop.
const fix = () => {
  for (const item of document.querySelectorAll('li[data-item-id][aria-label]')) item.removeAttribute('aria-label');
  for (const pre of document.querySelectorAll('pre:not([tabindex])')) pre.setAttribute('tabindex', '0');
};
new MutationObserver(fix).observe(document.body, { childList: true, subtree: true });
fix();
