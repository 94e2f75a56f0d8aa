// A map's description on a phone (issue 26, defect 7): above the map with the title, its first
// lines only (site.css clamps `.description.clamped` on narrow screens), and a "Read more" button
// (aria-expanded) for the rest. Without this script the whole description shows.
import { element } from './element.js';

export function startDescriptionToggle(): void {
  const description = document.querySelector<HTMLElement>('.map-heading > .description');
  if (!description) return;
  description.id ||= 'map-description';
  const button = element('button', { type: 'button', class: 'link read-more', 'aria-expanded': 'false', 'aria-controls': description.id }, 'Read more');
  description.after(button);
  description.classList.add('clamped');
  let expanded = false;
  /** The button shows only while the clamp hides something (a phone and a long description). */
  const refresh = () => {
    description.classList.toggle('clamped', !expanded);
    button.hidden = !expanded && description.scrollHeight <= description.clientHeight + 1;
  };
  button.addEventListener('click', () => {
    expanded = !expanded;
    button.setAttribute('aria-expanded', String(expanded));
    button.textContent = expanded ? 'Read less' : 'Read more';
    refresh();
  });
  // A link the clamp hides that gets the keyboard shows the whole description.
  description.addEventListener('focusin', () => {
    if (!expanded) button.click();
  });
  new ResizeObserver(refresh).observe(description);
  refresh();
}
