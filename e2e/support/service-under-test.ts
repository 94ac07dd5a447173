import { ClusterServices } from './cluster-services';
import { StandaloneService } from './standalone-service';

/** What the HTTP suites need of a running service, whichever mode runs it. */
export interface ServiceUnderTest {
  baseUrl: string;
  dataDir: string;
  adminToken: string;
  destroy(): Promise<void>;
}

export interface Mode {
  name: 'standalone' | 'cluster';
  start: (env?: Record<string, string>) => Promise<ServiceUnderTest>;
}

const standalone: Mode = { name: 'standalone', start: (env) => StandaloneService.start(env) };
const cluster: Mode = {
  name: 'cluster',
  start: async (env) => {
    const services = await ClusterServices.start(env);
    if (!services) throw new Error('PostgreSQL, Redis or NATS went away since the global setup found them');
    return services;
  },
};

export const clusterAvailable = process.env.CS_E2E_CLUSTER === 'available';

/** Both modes; the cluster's cases are declared skipped where PostgreSQL, Redis or NATS is missing. */
export const MODES: Mode[] = [standalone, cluster];

/** `describe` for a mode: skipped, and so counted, when the mode cannot run here. */
export const describeMode = (mode: Mode) => (mode.name === 'cluster' && !clusterAvailable ? describe.skip : describe);
