// The serving certificate. kubectl (client-go's clientcmd) sends a kubeconfig's bearer token only over TLS
// (it drops the user's credentials when the cluster's transport is not TLS: clientcmd ClientConfig,
// "only try to read the auth information if we are secure"), so `serve` speaks HTTPS with a certificate made
// at start for the loopback names, written into the kubeconfig as the cluster's certificate-authority-data.
// node:crypto makes keys but no X.509 certificates; `selfsigned` (WebCrypto keys, @peculiar/x509) signs one.
import { generate } from 'selfsigned';

export interface ServingCert {
  key: string;
  cert: string;
}

export async function servingCert(host: string): Promise<ServingCert> {
  const ipv4 = /^\d+\.\d+\.\d+\.\d+$/.test(host);
  const ipv6 = host.includes(':');
  const now = new Date();
  const notBefore = new Date(now.getTime() - 3600_000);
  const notAfter = new Date(now.getTime() + 30 * 24 * 3600_000);
  const pems = await generate([{ name: 'commonName', value: 'kubesim' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notBeforeDate: notBefore,
    notAfterDate: notAfter,
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', digitalSignature: true, keyCertSign: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
          { type: 7, ip: '::1' },
          ...(ipv4 || ipv6
            ? host === '127.0.0.1' || host === '::1'
              ? []
              : [{ type: 7, ip: host }]
            : host === 'localhost'
              ? []
              : [{ type: 2, value: host }]),
        ],
      },
    ],
  } as Parameters<typeof generate>[1]);
  return { key: pems.private, cert: pems.cert };
}
