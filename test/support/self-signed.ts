// A self-signed certificate made by openssl at test time, for the tests that speak TLS (the
// reverse proxy, a TLS Redis, an agent that cannot verify the meta-server): nothing secret is
// kept in the repository, and each test's certificate lives and dies with its directory.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

/** The certificate and key files written into `dir`, valid for 127.0.0.1 and localhost. */
export function selfSignedCertificate(dir: string): { cert: string; key: string } {
  const cert = join(dir, 'cert.pem');
  const key = join(dir, 'key.pem');
  const subject = ['-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost'];
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '2', ...subject], {
    stdio: 'pipe',
  });
  return { cert, key };
}
