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

/** Standalone always; the cluster when the global setup found PostgreSQL, Redis and NATS. */
export const MODES: Mode[] = process.env.CS_E2E_CLUSTER === 'available' ? [standalone, cluster] : [standalone];
export const clusterAvailable = process.env.CS_E2E_CLUSTER === 'available';
