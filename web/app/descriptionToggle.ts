// A map's description (issue 26, defect 7): on a phone above the map with the title, its first
// three lines only (twelve on a wider screen, where the item list and the editor's panels come
// after it: site.css clamps `.description.clamped`), and a "Read more" button (aria-expanded) for
// the rest. Without this script the whole description shows.
import { element } from './element.js';

export function startDescriptionToggle(): void {
  const description = document.querySelector<HTMLElement>('.map-heading > .description');
  if (!description) return;
  description.id ||= 'map-description';
  const button = element('button', { type: 'button', class: 'link read-more', 'aria-expanded': 'false', 'aria-controls': description.id }, 'Read more');
  description.after(button);
  description.classList.add('clamped');
  let expanded = false;
  /** The button shows only where the clamp would hide something (a long description, a phone). */
  const refresh = () => {
    description.classList.add('clamped');
    const hides = description.scrollHeight > description.clientHeight + 1;
    description.classList.toggle('clamped', !expanded);
    button.hidden = !hides;
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
