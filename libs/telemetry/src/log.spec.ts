import { Writable } from 'node:stream';
import { addLogFields, createLogger, withLogFields } from './log';

/** A logger writing into an array of parsed lines. */
function capture() {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  return { lines, logger: createLogger('gateway', 'info', sink) };
}

describe('createLogger', () => {
  it('writes level names, ISO times and the service', () => {
    const { lines, logger } = capture();
    logger.info('hello');
    logger.debug('not at info');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 'info', service: 'gateway', msg: 'hello' });
    expect(lines[0].time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it('adds the fields of the work in hand, including those learnt on the way', async () => {
    const { lines, logger } = capture();
    await withLogFields({ requestId: 'r-1' }, async () => {
      await Promise.resolve();
      addLogFields({ companyId: 'c-1' });
      logger.info('inside');
    });
    logger.info('outside');
    expect(lines[0]).toMatchObject({ requestId: 'r-1', companyId: 'c-1' });
    expect(lines[1]).not.toHaveProperty('requestId');
  });

  it('never writes a secret, wherever it is nested', () => {
    const { lines, logger } = capture();
    logger.info(
      {
        apiKey: 'csk_secret',
        body: { token: 't', password: 'p' },
        req: { headers: { 'x-api-key': 'csk_other' } },
        config: { adminToken: 'adm1n', cluster: { s3: { secretKey: 's3cr3t' }, databaseUrl: 'postgres://u:pw@db' } },
      },
      'x',
    );
    const text = JSON.stringify(lines[0]);
    for (const secret of ['csk_secret', '"t"', '"p"', 'csk_other', 'adm1n', 's3cr3t', 'pw@db']) expect(text).not.toContain(secret);
  });
});
