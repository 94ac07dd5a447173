import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { collectFiles } from './collect-files';

describe('collectFiles', () => {
  let root: string;
  beforeAll(async () => {
    root = await fs.mkdtemp(path.join(os.tmpdir(), 'cs-cli-files-'));
    for (const file of ['a.pdf', 'b.DOCX', 'notes.md', 'sub/c.doc', 'sub/deeper/d.txt', '.hidden/e.pdf', 'sub/.f.pdf', 'photo.png'])
      await fs.mkdir(path.dirname(path.join(root, file)), { recursive: true }).then(() => fs.writeFile(path.join(root, file), file));
  });
  afterAll(() => fs.rm(root, { recursive: true, force: true }));

  it('walks folders for pdf, docx, doc and txt files, skipping dot-files and dot-folders', async () => {
    const { files, unsupported } = await collectFiles([root]);
    expect(files.map((f) => path.relative(root, f.path))).toEqual(['a.pdf', 'b.DOCX', 'sub/c.doc', 'sub/deeper/d.txt']);
    expect(files[0]).toEqual({ path: path.join(root, 'a.pdf'), size: 5, mtimeMs: expect.any(Number) });
    expect(unsupported).toEqual([]);
  });

  it('takes files relative to the working folder, each once however often named, and reports named files that are not CVs', async () => {
    const { files, unsupported } = await collectFiles(['a.pdf', 'sub', './sub/c.doc', 'photo.png'], root);
    expect(files.map((f) => path.relative(root, f.path))).toEqual(['a.pdf', 'sub/c.doc', 'sub/deeper/d.txt']);
    expect(unsupported).toEqual([path.join(root, 'photo.png')]);
  });

  it('refuses a path that does not exist as a usage error (exit 2)', async () => {
    await expect(collectFiles(['missing.pdf'], root)).rejects.toMatchObject({
      exitCode: 2,
      message: 'no such file or folder: missing.pdf',
    });
  });
});
