// Loaded before anything else (main.ts's first import), so that tracing patches what loads next.
import { startTracing } from '@cs/service-kit/tracing';

startTracing('dense');
