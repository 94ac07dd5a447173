import { fileNameOf } from './uploads.service';

describe('fileNameOf', () => {
  it('decodes the last path segment', () => {
    expect(fileNameOf(new URL('https://cvs.example/people/Ana%20Lima.pdf?x=1'))).toBe('Ana Lima.pdf');
  });

  it('keeps a segment whose percent escapes do not decode, as written', () => {
    expect(fileNameOf(new URL('https://cvs.example/%E0%A4%A.pdf'))).toBe('%E0%A4%A.pdf');
  });

  it('drops control characters and encoded slashes, which a name must not hold', () => {
    expect(fileNameOf(new URL('https://cvs.example/cv%00%0A%2Fx.txt'))).toBe('cvx.txt');
  });

  it('falls back to "download" when nothing is left', () => {
    expect(fileNameOf(new URL('https://cvs.example/'))).toBe('download');
    expect(fileNameOf(new URL('https://cvs.example/%00'))).toBe('download');
  });
});
