import type { DocumentsRepository } from '@cs/records';
import { DocumentTexts } from './document-texts';

/** A repository holding two processed CVs, counting what each read asked for. */
function repository() {
  const stored = new Map([
    ['a', { text: 'Java engineer', chunks: [{ index: 0, start: 0, end: 13 }] }],
    ['b', { text: 'Chef', chunks: [] }],
  ]);
  const asked = { texts: [] as string[][], contents: [] as string[][], chunks: [] as string[][] };
  const fake = {
    getTexts: async (_company: string, ids: string[]) => {
      asked.texts.push(ids);
      return new Map(ids.filter((id) => stored.has(id)).map((id) => [id, stored.get(id)!.text]));
    },
    getChunks: async (_company: string, ids: string[]) => {
      asked.chunks.push(ids);
      return new Map(ids.filter((id) => stored.has(id)).map((id) => [id, stored.get(id)?.chunks]));
    },
    getContents: async (_company: string, ids: string[]) => {
      asked.contents.push(ids);
      return new Map(ids.filter((id) => stored.has(id)).map((id) => [id, stored.get(id) as { text: string; chunks: [] }]));
    },
  };
  return { documents: fake as unknown as DocumentsRepository, asked };
}

describe('DocumentTexts', () => {
  it('reads texts without spans, and each from the database once', async () => {
    const { documents, asked } = repository();
    const texts = new DocumentTexts(documents);
    expect(await texts.texts('c', ['a', 'gone'])).toEqual(new Map([['a', 'Java engineer']]));
    expect(await texts.texts('c', ['a', 'b'])).toEqual(
      new Map([
        ['a', 'Java engineer'],
        ['b', 'Chef'],
      ]),
    );
    expect(asked.texts).toEqual([['a', 'gone'], ['b']]);
    expect(asked.contents).toEqual([]);
  });

  it('reads only the spans of a CV whose text is cached, then serves both from the cache', async () => {
    const { documents, asked } = repository();
    const texts = new DocumentTexts(documents);
    await texts.texts('c', ['a']);
    const first = await texts.contents('c', ['a', 'b']);
    expect(first.get('a')).toEqual({ text: 'Java engineer', chunks: [{ index: 0, start: 0, end: 13 }] });
    expect(await texts.contents('c', ['a', 'b'])).toEqual(first);
    expect(await texts.texts('c', ['b'])).toEqual(new Map([['b', 'Chef']]));
    expect(asked.chunks).toEqual([['a']]);
    expect(asked.contents).toEqual([['b']]);
    expect(asked.texts).toEqual([['a']]);
  });
});
