/**
 * Notifications the database sends on a channel (PostgreSQL's LISTEN/NOTIFY, in both modes).
 * Delivery is at most once: a listener whose connection dropped misses what was sent meanwhile,
 * so a consumer that must not miss an event also reads the state it waits on.
 */
export interface NotificationListener {
  /**
   * Calls `onMessage` with each payload sent on `channel`, and `onResync` whenever notifications
   * may have been missed (after a reconnection). Resolves once listening; the result stops it.
   */
  listen(channel: string, handlers: NotificationHandlers): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

export interface NotificationHandlers {
  onMessage: (payload: string) => void;
  onResync?: () => void;
}

export const NOTIFICATION_LISTENER = Symbol('NotificationListener');
