import { Client } from 'pg';
import type { NotificationHandlers, NotificationListener } from '@cs/ports';

export interface PostgresListenerOptions {
  connectionString: string;
  /** Told of each lost connection, before the reconnection is tried. */
  onError?: (error: Error) => void;
  /** First and longest pause between reconnection attempts (doubled each failure, with jitter). */
  retryMs?: number;
  maxRetryMs?: number;
}

const jitter = (ms: number) => Math.round(ms * (0.5 + Math.random()));
/** A channel name as an SQL identifier: LISTEN takes no parameters. */
const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * LISTEN on a connection of its own (a pool would hand the connection, and its LISTENs, to
 * other queries). A lost connection is opened again with backoff and every channel listened on
 * again; then each consumer is told to resync, since what was sent in between is lost.
 */
export class PostgresNotificationListener implements NotificationListener {
  private readonly channels = new Map<string, Set<NotificationHandlers>>();
  private client: Client | null = null;
  private connecting: Promise<void> | null = null;
  private retryTimer: NodeJS.Timeout | null = null;
  private failures = 0;
  private closed = false;

  constructor(private readonly options: PostgresListenerOptions) {}

  async listen(channel: string, handlers: NotificationHandlers): Promise<() => Promise<void>> {
    let set = this.channels.get(channel);
    const isNew = !set;
    if (!set) this.channels.set(channel, (set = new Set()));
    set.add(handlers);
    if (!this.client && !this.connecting) await this.connect();
    else await this.connecting;
    if (isNew && this.client) await this.client.query(`LISTEN ${quoteIdent(channel)}`);
    return async () => {
      set.delete(handlers);
      if (set.size > 0 || this.channels.get(channel) !== set) return;
      this.channels.delete(channel);
      await this.client?.query(`UNLISTEN ${quoteIdent(channel)}`).catch(() => undefined);
    };
  }

  /** Connects and listens on every channel; a failure schedules the next attempt and is thrown to the first caller only. */
  private connect(): Promise<void> {
    this.connecting = this.open()
      .then((client) => {
        this.client = client;
        const resync = this.failures > 0;
        this.failures = 0;
        if (resync) for (const set of this.channels.values()) for (const h of set) h.onResync?.();
      })
      .catch((error: unknown) => {
        this.scheduleReconnect(error instanceof Error ? error : new Error(String(error)));
        throw error;
      })
      .finally(() => {
        this.connecting = null;
      });
    return this.connecting;
  }

  private async open(): Promise<Client> {
    // keepAlive: a peer gone without a word (a partition) is noticed by TCP, not never.
    const client = new Client({ connectionString: this.options.connectionString, connectionTimeoutMillis: 5000, keepAlive: true });
    client.on('notification', (message) => {
      const set = this.channels.get(message.channel);
      if (set) for (const h of set) h.onMessage(message.payload ?? '');
    });
    const lost = (error: Error) => {
      if (this.client !== client) return;
      this.client = null;
      client.removeAllListeners('end');
      client.end().catch(() => undefined);
      this.scheduleReconnect(error);
    };
    client.on('error', lost);
    client.on('end', () => lost(new Error('the notification connection ended')));
    try {
      await client.connect();
      for (const channel of this.channels.keys()) await client.query(`LISTEN ${quoteIdent(channel)}`);
    } catch (error) {
      client.removeAllListeners('end');
      await client.end().catch(() => undefined);
      throw error;
    }
    return client;
  }

  private scheduleReconnect(error: Error): void {
    if (this.closed || this.retryTimer) return;
    this.options.onError?.(error);
    this.failures++;
    const base = this.options.retryMs ?? 250;
    const delay = jitter(Math.min(base * 2 ** (this.failures - 1), this.options.maxRetryMs ?? 10_000));
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      if (!this.closed && !this.client && !this.connecting) this.connect().catch(() => undefined);
    }, delay);
    this.retryTimer.unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    await this.connecting?.catch(() => undefined);
    const client = this.client;
    this.client = null;
    client?.removeAllListeners('end');
    await client?.end().catch(() => undefined);
  }
}
