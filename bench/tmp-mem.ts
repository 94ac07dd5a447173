import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { EVAL_DIR } from '../e2e/support/standalone-service';
import { ingest, loadCorpus, startInstance } from './harness';
(async () => {
  const { service, client } = await startInstance(process.argv[2] ? { NODE_OPTIONS: process.argv[2] } : {});
  const rss = async () => (await fs.readFile(`/proc/${service.pid}/status`, 'utf8')).match(/VmRSS:\s+(\d+)/)?.[1];
  console.log(process.argv[2], 'boot', await rss());
  const r = await ingest(client, loadCorpus(path.join(EVAL_DIR, 'livecareer/pdf'), 2484));
  console.log('ingested', r.seconds, 'rss', await rss());
  for (let i = 0; i < 40; i++) for (const t of ['dense', 'sparse', 'hybrid', 'builtin-rerank']) { const c = await client.post(`/v1/public/searches/${t}`, { query: 'accountant general ledger reconciliation ' + i }); await client.waitForSearch(c.body.searchId, 60000, 5); }
  console.log('searched rss', await rss());
  await new Promise((r) => setTimeout(r, 10000));
  console.log('idle 10s rss', await rss());
  await service.destroy();
})();
