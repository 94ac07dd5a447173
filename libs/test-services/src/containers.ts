import { GenericContainer, Wait, type StartedTestContainer } from 'testcontainers';

/**
 * Starts an image with one exposed port and returns its base URL. Suites that call it declare the
 * `docker` need (libs/test-services environment), so it runs only where a container runtime is.
 */
export async function startContainer(
  image: string,
  port: number,
  options: { env?: Record<string, string>; waitPath?: string; command?: string[] } = {},
): Promise<{ url: string; stop: () => Promise<void> }> {
  let container = new GenericContainer(image).withExposedPorts(port).withEnvironment(options.env ?? {});
  if (options.command) container = container.withCommand(options.command);
  if (options.waitPath) container = container.withWaitStrategy(Wait.forHttp(options.waitPath, port).forStatusCodeMatching((s) => s < 500));
  const started: StartedTestContainer = await container.start();
  return {
    url: `http://${started.getHost()}:${started.getMappedPort(port)}`,
    stop: async () => {
      await started.stop();
    },
  };
}
