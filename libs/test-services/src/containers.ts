import { GenericContainer, Wait, getContainerRuntimeClient, type StartedTestContainer } from 'testcontainers';

let runtime: Promise<boolean> | undefined;

/** Whether a container runtime (Docker) is here; asked once per test process. */
export function dockerAvailable(): Promise<boolean> {
  runtime ??= getContainerRuntimeClient().then(
    () => true,
    () => false,
  );
  return runtime;
}

/**
 * Starts an image with one exposed port and returns its base URL, or null (with one line saying
 * so) where no container runtime exists.
 */
export async function startContainer(suite: string, image: string, port: number, options: { env?: Record<string, string>; waitPath?: string; command?: string[] } = {}): Promise<{ url: string; stop: () => Promise<void> } | null> {
  if (!(await dockerAvailable())) {
    console.log(`${suite}: skipped, no container runtime (Docker) for ${image}`);
    return null;
  }
  let container = new GenericContainer(image).withExposedPorts(port).withEnvironment(options.env ?? {});
  if (options.command) container = container.withCommand(options.command);
  if (options.waitPath) container = container.withWaitStrategy(Wait.forHttp(options.waitPath, port).forStatusCodeMatching((s) => s < 500));
  const started: StartedTestContainer = await container.start();
  return { url: `http://${started.getHost()}:${started.getMappedPort(port)}`, stop: async () => void (await started.stop()) };
}
