import { typeOfFetched } from './uploads.service';

describe('typeOfFetched', () => {
  it('decides by the bytes, not the served type', () => {
    expect(typeOfFetched(Buffer.from('%PDF-1.7 ...'), 'application/octet-stream', 'download')).toBe('application/pdf');
    expect(typeOfFetched(Buffer.from('%PDF-1.7 ...'), 'text/html', 'cv.html')).toBe('application/pdf');
    expect(typeOfFetched(Buffer.from('<html>not a CV</html>'), 'text/html', 'page')).toBeNull();
    expect(typeOfFetched(Buffer.from('Plain CV text'), 'text/plain; charset=utf-8'.split(';')[0], 'cv')).toBe('text/plain');
    expect(typeOfFetched(Buffer.from('Plain CV text'), 'application/octet-stream', 'cv.txt')).toBe('text/plain');
    expect(typeOfFetched(Buffer.from('Plain CV text'), 'application/octet-stream', 'cv')).toBeNull();
  });
});
