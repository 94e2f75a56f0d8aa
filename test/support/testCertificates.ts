// A certificate authority of a test's own and a server certificate it signed for 127.0.0.1 and
// localhost, made with the openssl command-line tool into a temporary directory (removed before
// this answers): what an operator's private CA and a webhook endpoint inside their network are.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface TestCertificates {
  /** The CA's certificate (PEM): what WEBHOOK_CA_FILE holds. */
  caPem: string;
  /** The server's certificate (PEM), signed by the CA, and its private key. */
  certPem: string;
  keyPem: string;
}

const openssl = (cwd: string, args: string[]) => execFileSync('openssl', args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });

export function makeTestCertificates(commonName = 'Webhook test CA'): TestCertificates {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mps-certs-'));
  try {
    const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];
    openssl(dir, ['req', '-x509', ...ec, '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '2', '-subj', `/CN=${commonName}`, '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign']);
    openssl(dir, ['req', '-new', ...ec, '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=127.0.0.1']);
    fs.writeFileSync(path.join(dir, 'server.ext'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n');
    openssl(dir, ['x509', '-req', '-in', 'server.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'server.pem', '-days', '2', '-extfile', 'server.ext']);
    const read = (name: string) => fs.readFileSync(path.join(dir, name), 'utf8');
    return { caPem: read('ca.pem'), certPem: read('server.pem'), keyPem: read('server.key') };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
