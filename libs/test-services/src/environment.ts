/**
 * What this test run has, as the Jest global setup found it (`scripts/jest-probe.js`), read
 * synchronously so that a suite can declare its cases skipped at load time.
 */
export interface TestEnvironment {
  postgresUrl: string | null;
  redisUrl: string | null;
  natsUrl: string | null;
  docker: boolean;
  /** tmux, which drives a real terminal for the CLI's tests. */
  tmux: boolean;
  /** `../shared/eval`, where it exists. */
  evalDir: string | null;
  /** A Chromium executable for the browser suites (CHROMIUM_PATH, else /usr/bin/chromium), where it exists. */
  chromiumPath: string | null;
}

export type TestNeed = 'postgres' | 'redis' | 'nats' | 'docker' | 'tmux' | 'eval' | 'chromium';

export function testEnvironment(env: NodeJS.ProcessEnv = process.env): TestEnvironment {
  if (env.CS_TEST_PROBED !== '1')
    throw new Error('the test environment was not probed: run the suites through npm test (jest.config.js global setup)');
  return {
    postgresUrl: env.CS_TEST_POSTGRES_URL || null,
    redisUrl: env.CS_TEST_REDIS_URL || null,
    natsUrl: env.CS_TEST_NATS_URL || null,
    docker: env.CS_TEST_DOCKER === '1',
    tmux: env.CS_TEST_TMUX === '1',
    evalDir: env.CS_TEST_EVAL_DIR || null,
    chromiumPath: env.CS_TEST_CHROMIUM || null,
  };
}

const NEED_NAMES: Record<TestNeed, string> = {
  postgres: 'PostgreSQL',
  redis: 'Redis',
  nats: 'NATS JetStream',
  docker: 'Docker',
  tmux: 'tmux',
  eval: '../shared/eval',
  chromium: 'Chromium',
};

/** Null when every need is met, else the words of a skipped suite's title: "needs Docker". */
export function missingNeeds(needs: TestNeed[], env = testEnvironment()): string | null {
  const has: Record<TestNeed, boolean> = {
    postgres: !!env.postgresUrl,
    redis: !!env.redisUrl,
    nats: !!env.natsUrl,
    docker: env.docker,
    tmux: env.tmux,
    eval: !!env.evalDir,
    chromium: !!env.chromiumPath,
  };
  const missing = needs.filter((n) => !has[n]).map((n) => NEED_NAMES[n]);
  return missing.length ? `needs ${missing.join(', ')}` : null;
}

/** `describe`, or `describe.skip` with the missing needs in its title, so Jest counts its cases skipped. */
export function describeWith(needs: TestNeed[]): (title: string, body: () => void) => void {
  const missing = missingNeeds(needs);
  return missing ? (title, body) => describe.skip(`${title} (skipped: ${missing})`, body) : describe;
}
