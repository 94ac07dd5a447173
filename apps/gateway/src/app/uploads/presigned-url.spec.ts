import { checkUploadSignature, signUploadUrl } from './presigned-url';

describe('presigned upload URLs', () => {
  const expiresAt = new Date(Date.now() + 3600_000);
  const url = new URL(signUploadUrl('http://localhost:8080', 'secret-secret-secret', 'up-1', expiresAt));
  const expires = url.searchParams.get('expires');
  const signature = url.searchParams.get('signature');

  it('accepts its own signature until it expires', () => {
    expect(url.pathname).toBe('/uploads/up-1');
    expect(checkUploadSignature('secret-secret-secret', 'up-1', expires, signature)).toBe('valid');
    expect(checkUploadSignature('secret-secret-secret', 'up-1', expires, signature, expiresAt.getTime() + 2000)).toBe('expired');
  });

  it('refuses another upload id, another secret, a changed expiry or garbage', () => {
    expect(checkUploadSignature('secret-secret-secret', 'up-2', expires, signature)).toBe('invalid');
    expect(checkUploadSignature('another-secret-here', 'up-1', expires, signature)).toBe('invalid');
    expect(checkUploadSignature('secret-secret-secret', 'up-1', String(Number(expires) + 1), signature)).toBe('invalid');
    expect(checkUploadSignature('secret-secret-secret', 'up-1', undefined, 'zz')).toBe('invalid');
  });
});
