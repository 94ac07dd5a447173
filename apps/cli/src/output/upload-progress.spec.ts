import { formatBytes, formatDuration, uploadLine } from './upload-progress';

describe('uploadLine', () => {
  const totals = { files: 40, bytes: 4 * 1024 * 1024, allFiles: 40 };

  it('shows files done of all, bytes, CVs a second and the time left at that pace', () => {
    expect(uploadLine({ files: 10, bytes: 1024 * 1024 }, totals, 5)).toBe('10/40 files | 1.0 MB/4.0 MB | 2.0 CVs/s | ETA 15s');
  });

  it('makes the time left at least a rate-limit pause, and says it is paused', () => {
    expect(uploadLine({ files: 10, bytes: 1024 }, totals, 5, 42.2)).toBe(
      '10/40 files | 1.0 KB/4.0 MB | 2.0 CVs/s | ETA 43s | rate limited: resuming in 43s',
    );
  });

  it('has no estimate before the first file, and says done after the last', () => {
    expect(uploadLine({ files: 0, bytes: 0 }, totals, 0)).toBe('0/40 files | 0 B/4.0 MB | 0.0 CVs/s | ETA --');
    expect(uploadLine({ files: 40, bytes: totals.bytes }, totals, 80, 10)).toBe('40/40 files | 4.0 MB/4.0 MB | 0.5 CVs/s | done');
  });
});

describe('formatBytes and formatDuration', () => {
  it('reads as people write sizes and durations', () => {
    expect([formatBytes(512), formatBytes(12_595), formatBytes(5 * 1024 * 1024 + 1)]).toEqual(['512 B', '12.3 KB', '5.0 MB']);
    expect([formatDuration(42.4), formatDuration(185), formatDuration(3720)]).toEqual(['42s', '3m05s', '1h02m']);
  });
});
