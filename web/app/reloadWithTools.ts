// The map page again with the editing tools on (`?edit=1`), after an import or a restore that
// changed the map on the service. The address keeps the map's view (#map=…), so the map opens
// where it was; when the address already has `edit=1`, going to it would only be a move to its
// own fragment, which loads nothing: then the page is reloaded.

export function reloadWithTools({ replace = false } = {}): void {
  const url = new URL(location.href);
  url.searchParams.set('edit', '1');
  if (url.href === location.href) location.reload();
  else if (replace) location.replace(url.href);
  else location.assign(url.href);
}
