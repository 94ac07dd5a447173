import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { SAMPLE_CVS, sampleCvFiles } from '@cs/document-parsing/testing';

/**
 * Writes the README tour's sample CVs to samples/cvs: the fixture CVs the tests use, one per
 * profession, across the four accepted formats. A unit test fails when the committed files drift.
 */
async function main(): Promise<void> {
  const dir = path.resolve(__dirname, '..', 'samples', 'cvs');
  mkdirSync(dir, { recursive: true });
  for (const file of await sampleCvFiles()) {
    writeFileSync(path.join(dir, file.fileName), file.bytes);
    console.log(`wrote samples/cvs/${file.fileName} (${file.bytes.length} bytes)`);
  }
  console.log(`${SAMPLE_CVS.length} sample CVs`);
}

void main();
