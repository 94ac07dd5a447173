import { createHmac, timingSafeEqual } from 'node:crypto';

/** The standalone gateway's own presigned URLs: an HMAC over the upload id and expiry. */
export function signUploadUrl(baseUrl: string, secret: string, uploadId: string, expiresAt: Date): string {
  const expires = Math.floor(expiresAt.getTime() / 1000);
  return `${baseUrl}/uploads/${uploadId}?expires=${expires}&signature=${sign(secret, uploadId, expires)}`;
}

function sign(secret: string, uploadId: string, expires: number): string {
  return createHmac('sha256', secret).update(`${uploadId}.${expires}`).digest('hex');
}

export type SignatureCheck = 'valid' | 'invalid' | 'expired';

export function checkUploadSignature(
  secret: string,
  uploadId: string,
  expires: unknown,
  signature: unknown,
  now = Date.now(),
): SignatureCheck {
  if (typeof expires !== 'string' || !/^\d{1,12}$/.test(expires) || typeof signature !== 'string' || !/^[0-9a-f]{64}$/.test(signature))
    return 'invalid';
  const expected = Buffer.from(sign(secret, uploadId, Number(expires)), 'hex');
  if (!timingSafeEqual(expected, Buffer.from(signature, 'hex'))) return 'invalid';
  return Number(expires) * 1000 < now ? 'expired' : 'valid';
}
