import autocannon from 'autocannon';

/** One route under load: what autocannon saw over `seconds`. */
export interface LoadRow {
  name: string;
  path: string;
  connections: number;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  bytesPerResponse: number;
  /** Answers that were not 2xx, and connection errors or timeouts: any of them voids the row. */
  non2xx: number;
  errors: number;
}

/** The reads an API consumer repeats most, each run alone (the load generator shares the cores with the service). */
export function loadRoutes(searchId: string): { name: string; path: string; connections: number }[] {
  const search = `/v1/public/searches/${searchId}`;
  return [
    { name: 'status', path: search, connections: 10 },
    { name: 'status', path: search, connections: 50 },
    { name: 'results, 20 items', path: `${search}/results?limit=20`, connections: 10 },
    { name: 'results, 20 items', path: `${search}/results?limit=20`, connections: 50 },
    { name: 'results, 20 items with CV text', path: `${search}/results?limit=20&include=extractedText`, connections: 10 },
  ];
}

/**
 * Loads each route in turn, after a short warm-up, as a client with the company's key would: a
 * new key each (limits count per key, and a route at 10k req/s spends a minute's million reads).
 * A row with answers other than 2xx, or errors, would measure something else: it fails the bench.
 */
export async function loadPhase(baseUrl: string, newKey: () => Promise<string>, searchId: string, seconds: number): Promise<LoadRow[]> {
  const rows: LoadRow[] = [];
  for (const route of loadRoutes(searchId)) {
    const options = { url: `${baseUrl}${route.path}`, connections: route.connections, headers: { 'x-api-key': await newKey() } };
    await autocannon({ ...options, duration: 2 });
    const result = await autocannon({ ...options, duration: seconds });
    rows.push({
      ...route,
      requestsPerSecond: result.requests.average,
      p50: result.latency.p50,
      p99: result.latency.p99,
      bytesPerResponse: result.requests.total ? result.throughput.total / result.requests.total : NaN,
      non2xx: result.non2xx,
      errors: result.errors + result.timeouts,
    });
    const row = rows[rows.length - 1];
    if (row.non2xx || row.errors)
      throw new Error(`loading ${route.name} at ${route.connections} connections: ${row.non2xx} answers not 2xx, ${row.errors} errors`);
  }
  return rows;
}

export function printLoad(rows: readonly LoadRow[]): void {
  process.stdout.write(
    `\nHTTP load (autocannon in the bench's process, one route at a time)\n\n| request | connections | req/s | p50 ms | p99 ms | bytes a response | not 2xx / errors |\n|---|---|---|---|---|---|---|\n`,
  );
  for (const r of rows) {
    process.stdout.write(
      `| ${r.name} | ${r.connections} | ${r.requestsPerSecond.toFixed(0)} | ${r.p50} | ${r.p99} | ${r.bytesPerResponse.toFixed(0)} | ${r.non2xx} / ${r.errors} |\n`,
    );
  }
}
