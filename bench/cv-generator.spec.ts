import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { generateCvs, loadSourceCvs } from './cv-generator';

const EVAL = path.resolve(__dirname, '../../shared/eval');
const withEval = existsSync(EVAL) ? it : it.skip;

describe('the CV generator', () => {
  withEval('makes distinct CVs, the same for the same seed, each with a headline and sections', () => {
    const sources = loadSourceCvs(EVAL);
    const first = [...generateCvs(sources, 3000, 7)];
    expect(new Set(first.map((cv) => cv.text)).size).toBe(3000);
    expect([...generateCvs(sources, 50, 7)].map((cv) => cv.text)).toEqual(first.slice(0, 50).map((cv) => cv.text));
    for (const cv of first.slice(0, 50)) expect(cv.text.split('\n').length).toBeGreaterThan(3);
  });
});
