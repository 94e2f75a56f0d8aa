// A PEM file of extra certificate authorities an operator trusts (WEBHOOK_CA_FILE: the CA of
// endpoints inside their own network), read once at start and checked: every certificate in it
// must parse, and there must be at least one.
import { X509Certificate } from 'node:crypto';
import fs from 'node:fs';

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/** The file's certificates as PEM text, or a sentence naming the variable and what is wrong. */
export function readCaFile(variable: string, file: string): { pem: string } | { problem: string } {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    return { problem: `${variable}: the file ${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).` };
  }
  const blocks = text.match(PEM_CERTIFICATE) ?? [];
  if (blocks.length === 0) return { problem: `${variable}: ${file} holds no PEM certificate (-----BEGIN CERTIFICATE-----).` };
  for (const [index, block] of blocks.entries()) {
    try {
      new X509Certificate(block);
    } catch {
      return { problem: `${variable}: certificate ${index + 1} in ${file} is not a valid X.509 certificate.` };
    }
  }
  return { pem: blocks.join('\n') };
}
