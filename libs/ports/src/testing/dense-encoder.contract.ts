import { describeWith, type TestNeed } from '@cs/test-services';
import type { DenseEncoder } from '../dense-encoder.port';

const TEXTS = [
  'Registered nurse with intensive care experience',
  'Executive chef who runs a busy restaurant kitchen',
  'Accountant who reconciles the general ledger',
];

function norm(vector: Float32Array): number {
  return Math.sqrt(vector.reduce((s, x) => s + x * x, 0));
}

/**
 * What every DenseEncoder must do; `open` returns a ready encoder. An encoder that cannot run
 * here (its server absent) is skipped through `needs`, never passed.
 */
export function describeDenseEncoderContract(
  name: string,
  open: () => Promise<{ encoder: DenseEncoder; cleanup?: () => Promise<void> }>,
  needs: TestNeed[] = [],
): void {
  describeWith(needs)(`DenseEncoder contract: ${name}`, () => {
    let opened: Awaited<ReturnType<typeof open>> | null = null;
    beforeAll(async () => {
      opened = await open();
    }, 30_000);
    afterAll(async () => {
      await opened?.encoder.close();
      await opened?.cleanup?.();
    });
    const test = (title: string, fn: (encoder: DenseEncoder) => Promise<void>) =>
      it(title, async () => {
        if (!opened) throw new Error('the encoder did not open');
        await fn(opened.encoder);
      });

    test('names its model and dimension', async (encoder) => {
      await Promise.resolve();
      expect(encoder.model.id).toMatch(/^(builtin|onnx|http):\S+$/);
      expect(Number.isInteger(encoder.model.dimensions) && encoder.model.dimensions > 0).toBe(true);
    });

    test('gives each passage one unit vector of the model dimension, in order', async (encoder) => {
      const vectors = await encoder.embedPassages(TEXTS);
      expect(vectors).toHaveLength(TEXTS.length);
      for (const vector of vectors) {
        expect(vector).toBeInstanceOf(Float32Array);
        expect(vector!.length).toBe(encoder.model.dimensions);
        expect(norm(vector!)).toBeCloseTo(1, 3);
      }
      const again = await encoder.embedPassages([TEXTS[1]]);
      expect([...again[0]!]).toEqual([...vectors[1]!].map((x) => expect.closeTo(x, 5) as unknown as number));
    });

    test('embeds no passages as no vectors', async (encoder) => {
      expect(await encoder.embedPassages([])).toEqual([]);
    });

    test('embeds a CV whole and by passage in one call', async (encoder) => {
      const cv = TEXTS.join('\n');
      const { whole, passages } = await encoder.embedCv(cv, TEXTS);
      expect(whole).toBeInstanceOf(Float32Array);
      expect(whole!.length).toBe(encoder.model.dimensions);
      expect(passages).toHaveLength(TEXTS.length);
      expect(passages.every((p) => p?.length === encoder.model.dimensions)).toBe(true);
    });

    test('embeds a query as a unit vector of the model dimension', async (encoder) => {
      const { vector, unknownWords } = await encoder.embedQuery('nurse in intensive care');
      expect(vector!.length).toBe(encoder.model.dimensions);
      expect(norm(vector!)).toBeCloseTo(1, 3);
      expect(Array.isArray(unknownWords)).toBe(true);
    });
  });
}
