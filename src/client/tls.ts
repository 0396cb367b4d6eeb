// TLS trust for the client's default transport: the `ca` option's undici Agent (the given certificates trusted
// besides Node's bundled roots, e.g. the self-signed certificate of `paygate sandbox start --https`). The rest of the
// trust rules, which need no undici, are in certificates.ts.
import { rootCertificates } from 'node:tls';
import { Agent } from 'undici';
import { caList, type CaCertificates } from './certificates.js';

export { untrustedCertificate, type CaCertificates } from './certificates.js';

/** An undici Agent that trusts `ca` as well as Node's bundled root certificates. */
export function trustingAgent(ca: CaCertificates): Agent {
  return new Agent({ connect: { ca: [...rootCertificates, ...caList(ca)] } });
}
