/** A small deterministic generator, so every run of a benchmark parses the same files. */
export function pseudoRandom(seed = 42): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/** Builds text from chunks until it reaches about `bytes`. */
export function fillTo(bytes: number, head: string, tail: string, next: (i: number) => string): string {
  const parts = [head];
  let size = head.length + tail.length;
  for (let i = 0; ; i += 1) {
    const part = next(i);
    if (size + part.length > bytes) break;
    parts.push(part);
    size += part.length;
  }
  parts.push(tail);
  return parts.join('');
}
