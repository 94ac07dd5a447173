import { openPglite } from '@cs/pglite';
import { describeNotificationsContract } from './notifications.contract';

// The same contract against PostgreSQL, and its listener's reconnection: notify-triggers.int-spec.ts.
describeNotificationsContract('PGlite', async () => {
  const db = await openPglite(null);
  return { sql: db, listener: db.notifications, cleanup: async () => undefined };
});
