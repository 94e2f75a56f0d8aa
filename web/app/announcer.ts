// Screen-reader announcements of what the map does ("Point added", "3 items selected"): one
// polite live region for the page, visually hidden, made when first needed. The same text twice in
// a row is still announced (the region is emptied first, and filled on the next frame).
let region: HTMLElement | undefined;

function liveRegion(): HTMLElement {
  if (region?.isConnected) return region;
  region = document.createElement('p');
  region.className = 'visually-hidden';
  region.setAttribute('role', 'status');
  region.setAttribute('aria-live', 'polite');
  region.dataset.announcer = '';
  document.body.append(region);
  return region;
}

/** Tells screen-reader users what just happened (a short sentence). */
export function announce(text: string): void {
  const live = liveRegion();
  live.textContent = '';
  requestAnimationFrame(() => (live.textContent = text));
}
