// Copy buttons beside read-only fields (the map page's Share: its link and embed codes): shown once
// this script runs (hidden in the page as served), a click copies the field's text and says so in
// the button and to screen readers (the button's text is in a live region of its own).
export function startCopyButtons(root: ParentNode = document): void {
  for (const button of root.querySelectorAll<HTMLButtonElement>('button[data-copy]')) {
    const field = document.getElementById(button.dataset.copy ?? '') as HTMLInputElement | HTMLTextAreaElement | null;
    if (!field) continue;
    button.hidden = false;
    button.setAttribute('aria-live', 'polite');
    button.addEventListener('click', async () => {
      field.select();
      try {
        await navigator.clipboard.writeText(field.value);
        button.textContent = 'Copied';
      } catch {
        // No clipboard (an insecure origin, a refusal): the text is selected for the keyboard's copy.
        button.textContent = 'Press Ctrl+C';
      }
      setTimeout(() => (button.textContent = 'Copy'), 4_000);
    });
  }
}
