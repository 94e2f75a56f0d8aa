// The account forms' limits count in fixed windows (a quarter of an hour, an hour:
// lib/accountLimits.ts). A test that fills a window and then expects a refusal must not straddle
// two: this waits, when the current window ends within `marginMs`, until the next one starts.
export async function inOneWindow(windowMs: number, marginMs = 60_000): Promise<void> {
  const left = windowMs - (Date.now() % windowMs);
  if (left < marginMs) await new Promise((resolve) => setTimeout(resolve, left + 50));
}
