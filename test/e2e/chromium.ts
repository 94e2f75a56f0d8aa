// Debian's Chromium (installed by .ci/run) through playwright-core, with WebGL drawn in software
// (SwiftShader through ANGLE: no GPU here), and where the tests' screenshots go.
import fs from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

const CHROMIUM = '/usr/bin/chromium';
/** Screenshots of the pages the tests open, to look at (not committed). */
export const SHOTS = 'test/e2e/screenshots';

export async function launchChromium(): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: install Debian's chromium (.ci/run does)`);
  fs.mkdirSync(SHOTS, { recursive: true });
  return chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--ignore-gpu-blocklist'] });
}
