import { constants, createPublicKey, publicEncrypt, X509Certificate, type KeyObject } from 'node:crypto';

/**
 * Daraja's SecurityCredential: the initiator's password encrypted with the M-Pesa public certificate
 * (RSA, PKCS#1 v1.5 padding — OAEP is answered with 2001 "invalid initiator"), base64. The padding is
 * random, so each encryption differs; any of them is valid and one is reused for every request.
 */
export function securityCredential(initiatorPassword: string, publicKey: KeyObject): string {
  return publicEncrypt({ key: publicKey, padding: constants.RSA_PKCS1_PADDING }, Buffer.from(initiatorPassword, 'utf8')).toString('base64');
}

/**
 * The public key of an M-Pesa certificate as downloaded from the Daraja portal (PEM or DER; sandbox and
 * production certificates differ), or of a bare PEM public key (the simulator's). Throws when it is neither.
 */
export function mpesaPublicKey(certificate: Buffer): KeyObject {
  try {
    return new X509Certificate(certificate).publicKey;
  } catch {
    const key = createPublicKey(certificate);
    if (key.asymmetricKeyType !== 'rsa') throw new Error('not an RSA key');
    return key;
  }
}
