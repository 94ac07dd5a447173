import type { SqlClient } from '@cs/ports';

/**
 * Schema changes in order; each runs once, recorded in schema_migrations. The same SQL runs
 * on PGlite and PostgreSQL. Never edit a shipped migration: add a new one.
 */
export const MIGRATIONS: readonly { id: string; sql: string }[] = [
  {
    id: '0001_initial',
    sql: `
CREATE TABLE companies (
  id uuid PRIMARY KEY,
  name text NOT NULL,
  limits jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE api_keys (
  id uuid PRIMARY KEY,
  company_id uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  key_hash text NOT NULL UNIQUE,
  key_prefix text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  revoked_at timestamptz
);
CREATE INDEX api_keys_company ON api_keys(company_id);
CREATE INDEX api_keys_prefix ON api_keys(key_prefix);
CREATE TABLE documents (
  id uuid PRIMARY KEY,
  company_id uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  document_name text NOT NULL,
  document_type text NOT NULL,
  document_date text NOT NULL,
  status text NOT NULL,
  message text,
  content_hash text NOT NULL,
  file_name text NOT NULL,
  file_size integer NOT NULL,
  content_type text NOT NULL,
  storage_key text NOT NULL,
  extracted_text text,
  summary text,
  contact jsonb,
  profile jsonb,
  chunks jsonb,
  error jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX documents_company_hash ON documents(company_id, content_hash);
CREATE INDEX documents_company_created ON documents(company_id, created_at DESC);
CREATE TABLE uploads (
  id uuid PRIMARY KEY,
  company_id uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  file_name text NOT NULL,
  content_type text NOT NULL,
  file_size integer NOT NULL,
  storage_key text NOT NULL,
  status text NOT NULL,
  document_id uuid,
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE searches (
  id uuid PRIMARY KEY,
  company_id uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  search_group_id uuid NOT NULL,
  search_type text NOT NULL,
  query text NOT NULL,
  top_k integer NOT NULL,
  rerank_top_n integer NOT NULL,
  status text NOT NULL,
  error text,
  error_retryable boolean,
  results_count integer,
  processing_time_ms integer,
  results jsonb,
  metadata jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  started_at timestamptz,
  completed_at timestamptz
);
CREATE INDEX searches_group ON searches(company_id, search_group_id);
CREATE INDEX searches_running ON searches(status) WHERE status IN ('initiated', 'processing');
CREATE TABLE jobs (
  id text PRIMARY KEY,
  kind text NOT NULL,
  payload jsonb NOT NULL,
  status text NOT NULL DEFAULT 'queued',
  attempts integer NOT NULL DEFAULT 0,
  run_after timestamptz NOT NULL DEFAULT now(),
  last_error text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX jobs_ready ON jobs(kind, status, run_after);
`,
  },
  {
    // Every search reads the texts of hundreds of candidates: stored uncompressed they read
    // about a third faster (no pglz on each read), for about twice the space of a CV's text.
    // Rows written before this keep their compressed form until they are written again.
    id: '0002_uncompressed_cv_text',
    sql: `ALTER TABLE documents ALTER COLUMN extracted_text SET STORAGE EXTERNAL;`,
  },
  {
    // A worker claims the oldest ready job. Ordered by run_after, the old index made each claim
    // sort the whole backlog: behind a 30k-CV upload, 18 ms a claim instead of 1.5, and the
    // ingestion of 100k CVs slowed as it went. This index yields the oldest first.
    id: '0003_jobs_claim_order',
    sql: `CREATE INDEX jobs_claim ON jobs(kind, status, created_at);
DROP INDEX jobs_ready;`,
  },
  {
    // The transactional outbox: a job is written in the transaction of its record (a search, a
    // document) and published to the queue after the commit, so a failed publish loses no job.
    // id is the queue's idempotency key (`<kind>:<job id>`); a row is due for the relays' poll
    // at available_at, which the writer sets a lease ahead while it publishes the row itself.
    id: '0004_outbox',
    sql: `CREATE TABLE outbox (
  id text PRIMARY KEY,
  kind text NOT NULL,
  job_id text NOT NULL,
  payload jsonb NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  available_at timestamptz NOT NULL,
  last_error text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX outbox_due ON outbox(available_at);`,
  },
  {
    // W3C trace context of the request that made a job, so that the consumer's work joins its trace.
    id: '0005_job_trace_context',
    sql: `ALTER TABLE jobs ADD COLUMN trace_context jsonb;
ALTER TABLE outbox ADD COLUMN trace_context jsonb;`,
  },
  {
    // Idempotency-Key: a POST's key, the fingerprint of the request that first used it, and its
    // stored answer. scope is `company:<id>` (or `admin`), so companies never share keys. owner
    // is the claim of the request in flight; expires_at is its lease while in flight, then the
    // answer's expiry: a claim takes over a row only past it, and the pruner deletes it then.
    id: '0007_idempotency_keys',
    sql: `CREATE TABLE idempotency_keys (
  scope text NOT NULL,
  key text NOT NULL,
  method text NOT NULL,
  path text NOT NULL,
  fingerprint text NOT NULL,
  state text NOT NULL,
  owner uuid,
  response_status integer,
  response_headers jsonb,
  response_body bytea,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  PRIMARY KEY (scope, key)
);
CREATE INDEX idempotency_keys_expiry ON idempotency_keys(expires_at);`,
  },
  {
    // Webhooks. An event is written by a trigger in the transaction that takes a search or a
    // document to a final status, so the repositories' transitions stay as they are and no event
    // is lost or sent for a rolled-back change; only companies with an enabled endpoint subscribed
    // to the type get one (the rest pay one index lookup). The dispatcher fans each event out into
    // one delivery per subscribed endpoint (fanned_out_at: once), then attempts the deliveries.
    id: '0008_webhooks',
    sql: `CREATE TABLE webhook_endpoints (
  id uuid PRIMARY KEY,
  company_id uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  url text NOT NULL,
  event_types text[] NOT NULL,
  secret text NOT NULL,
  enabled boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhook_endpoints_company ON webhook_endpoints(company_id);
CREATE TABLE webhook_events (
  id uuid PRIMARY KEY,
  company_id uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  type text NOT NULL,
  subject_id uuid,
  payload jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  fanned_out_at timestamptz
);
CREATE INDEX webhook_events_new ON webhook_events(created_at) WHERE fanned_out_at IS NULL;
CREATE INDEX webhook_events_created ON webhook_events(created_at);
CREATE TABLE webhook_deliveries (
  id uuid PRIMARY KEY,
  event_id uuid NOT NULL REFERENCES webhook_events(id) ON DELETE CASCADE,
  endpoint_id uuid NOT NULL REFERENCES webhook_endpoints(id) ON DELETE CASCADE,
  status text NOT NULL DEFAULT 'pending',
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  last_attempt_at timestamptz,
  last_status_code integer,
  last_error text,
  last_response text,
  last_duration_ms integer,
  created_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz,
  UNIQUE (event_id, endpoint_id)
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries(next_attempt_at) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries(endpoint_id, created_at DESC);
CREATE TABLE webhook_attempts (
  delivery_id uuid NOT NULL REFERENCES webhook_deliveries(id) ON DELETE CASCADE,
  attempt integer NOT NULL,
  attempted_at timestamptz NOT NULL,
  status_code integer,
  error text,
  response text,
  duration_ms integer NOT NULL,
  outcome text NOT NULL,
  PRIMARY KEY (delivery_id, attempt)
);
CREATE FUNCTION webhook_record_event(company uuid, event_type text, subject uuid, payload jsonb) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM webhook_endpoints e WHERE e.company_id = company AND e.enabled AND event_type = ANY(e.event_types)) THEN
    INSERT INTO webhook_events (id, company_id, type, subject_id, payload) VALUES (gen_random_uuid(), company, event_type, subject, payload);
  END IF;
END $$;
CREATE FUNCTION webhook_search_finished() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM webhook_record_event(NEW.company_id, 'search.' || NEW.status, NEW.id, jsonb_build_object(
    'searchId', NEW.id, 'searchGroupId', NEW.search_group_id, 'searchType', NEW.search_type, 'status', NEW.status,
    'resultsCount', NEW.results_count, 'processingTimeMs', NEW.processing_time_ms, 'completedAt', NEW.completed_at,
    'error', NEW.error, 'errorRetryable', NEW.error_retryable));
  RETURN NULL;
END $$;
CREATE TRIGGER searches_webhook_event AFTER UPDATE OF status ON searches FOR EACH ROW
  WHEN (NEW.status IN ('completed', 'failed') AND OLD.status IS DISTINCT FROM NEW.status)
  EXECUTE FUNCTION webhook_search_finished();
CREATE FUNCTION webhook_document_finished() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM webhook_record_event(NEW.company_id, 'document.' || NEW.status, NEW.id, jsonb_build_object(
    'documentId', NEW.id, 'documentName', left(NEW.document_name, 300), 'documentType', NEW.document_type, 'status', NEW.status,
    'message', left(NEW.message, 1000), 'error', NEW.error));
  RETURN NULL;
END $$;
CREATE TRIGGER documents_webhook_event AFTER UPDATE OF status ON documents FOR EACH ROW
  WHEN (NEW.status IN ('completed', 'invalid', 'failed') AND OLD.status IS DISTINCT FROM NEW.status)
  EXECUTE FUNCTION webhook_document_finished();`,
  },
  {
    // Gateways waiting on a search (Prefer: wait, event streams) learn that it ended from the
    // database, whichever process ended it. The notification is sent at commit, and only then.
    id: '0009_search_ended_notify',
    sql: `CREATE FUNCTION cs_notify_search_ended() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('cs_search_ended', json_build_object('id', NEW.id, 'companyId', NEW.company_id, 'status', NEW.status)::text);
  RETURN NULL;
END
$$;
CREATE TRIGGER searches_ended_notify AFTER UPDATE OF status ON searches FOR EACH ROW
  WHEN (NEW.status IN ('completed', 'failed') AND OLD.status IS DISTINCT FROM NEW.status)
  EXECUTE FUNCTION cs_notify_search_ended();`,
  },
  {
    // A reindex of the dense vectors (admin reindex --dense): one runs at a time, carried out by
    // whichever ingestion worker holds its lease, page by page from its cursor.
    id: '0010_dense_reindexes',
    sql: `CREATE TABLE dense_reindexes (
  id uuid PRIMARY KEY,
  company_id uuid,
  from_model text NOT NULL,
  to_model text NOT NULL,
  state text NOT NULL CHECK (state IN ('running', 'completed', 'failed')),
  documents_total integer NOT NULL,
  documents_done integer NOT NULL DEFAULT 0,
  cursor_company_id uuid,
  cursor_document_id uuid,
  switched boolean NOT NULL DEFAULT false,
  error text,
  lease_owner text,
  lease_until timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz
);
CREATE UNIQUE INDEX dense_reindexes_one_running ON dense_reindexes ((true)) WHERE state = 'running';
CREATE INDEX dense_reindexes_created ON dense_reindexes (created_at DESC);
-- A reindex's pages: processed CVs in company and id order, each page read from its cursor.
CREATE INDEX documents_processed_walk ON documents (company_id, id) WHERE status = 'completed';`,
  },
  {
    // Gateways keep ended searches' result pages, which show their CVs' current fields: a CV
    // deleted or changed is told to every gateway at commit, which drops the pages showing it.
    // A CV's first processing tells nothing: no result showed it before it had its text.
    id: '0011_document_changed_notify',
    sql: `CREATE FUNCTION cs_notify_document_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('cs_document_changed', json_build_object('id', OLD.id, 'companyId', OLD.company_id)::text);
  RETURN NULL;
END
$$;
CREATE TRIGGER documents_deleted_notify AFTER DELETE ON documents FOR EACH ROW WHEN (OLD.extracted_text IS NOT NULL)
  EXECUTE FUNCTION cs_notify_document_changed();
CREATE TRIGGER documents_changed_notify AFTER UPDATE OF document_name, document_date, extracted_text, summary, contact, profile ON documents
  FOR EACH ROW WHEN (OLD.extracted_text IS NOT NULL AND (
    OLD.document_name IS DISTINCT FROM NEW.document_name OR OLD.document_date IS DISTINCT FROM NEW.document_date
    OR OLD.extracted_text IS DISTINCT FROM NEW.extracted_text OR OLD.summary IS DISTINCT FROM NEW.summary
    OR OLD.contact IS DISTINCT FROM NEW.contact OR OLD.profile IS DISTINCT FROM NEW.profile))
  EXECUTE FUNCTION cs_notify_document_changed();`,
  },
  {
    // A CV that fails alone while the rest of its page embeds is passed over, not retried until
    // the whole reindex fails: how many, and the first of them, for the operator to look at.
    id: '0012_dense_reindex_skipped',
    sql: `ALTER TABLE dense_reindexes ADD COLUMN documents_skipped integer NOT NULL DEFAULT 0,
  ADD COLUMN skipped_document_ids uuid[] NOT NULL DEFAULT '{}';`,
  },
  {
    // A search's filters as the client wrote them (echoed back), and as resolved for the stores
    // (skills to vocabulary keys, places to points), so that running it needs no gazetteer; the
    // profile fields it asked to count, and the counts (stored with its results).
    id: '0013_search_filters',
    sql: `ALTER TABLE searches ADD COLUMN filters jsonb, ADD COLUMN resolved_filter jsonb,
  ADD COLUMN facet_fields text[] NOT NULL DEFAULT '{}', ADD COLUMN facets jsonb;
CREATE OR REPLACE FUNCTION webhook_search_finished() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM webhook_record_event(NEW.company_id, 'search.' || NEW.status, NEW.id, jsonb_build_object(
    'searchId', NEW.id, 'searchGroupId', NEW.search_group_id, 'searchType', NEW.search_type, 'status', NEW.status,
    'resultsCount', NEW.results_count, 'processingTimeMs', NEW.processing_time_ms, 'completedAt', NEW.completed_at,
    'error', NEW.error, 'errorRetryable', NEW.error_retryable, 'filters', NEW.filters));
  RETURN NULL;
END $$;`,
  },
  {
    // Which version of CV understanding read a CV's profile: a newer one reads older CVs again
    // (the ingestion's profile refresh). Older profiles are not rewritten here: the records read
    // them with the fields they lack empty (documents.repository.ts), and a release before this
    // one still reads them during a rolling upgrade.
    id: '0014_understanding_version',
    sql: `ALTER TABLE documents ADD COLUMN understanding_version smallint NOT NULL DEFAULT 0;`,
  },
  {
    // A \`similar\` search starts from one of the company's CVs rather than a query: which one,
    // echoed with the search and in its webhook events. Not a foreign key: the search outlives
    // the CV, as its results do.
    id: '0015_search_similar_to',
    sql: `ALTER TABLE searches ADD COLUMN similar_to uuid;
CREATE OR REPLACE FUNCTION webhook_search_finished() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM webhook_record_event(NEW.company_id, 'search.' || NEW.status, NEW.id, jsonb_build_object(
    'searchId', NEW.id, 'searchGroupId', NEW.search_group_id, 'searchType', NEW.search_type, 'status', NEW.status,
    'resultsCount', NEW.results_count, 'processingTimeMs', NEW.processing_time_ms, 'completedAt', NEW.completed_at,
    'error', NEW.error, 'errorRetryable', NEW.error_retryable, 'filters', NEW.filters, 'similarTo', NEW.similar_to));
  RETURN NULL;
END $$;`,
  },
  {
    // A \`match\` search ranks CVs against a job posting's criteria rather than a query: the
    // criteria (as read from the posting, or as the client edited them), whether the hard ones
    // filter, and their place as the gazetteer resolved it. The posting's text is not kept.
    id: '0016_search_match',
    sql: `ALTER TABLE searches ADD COLUMN match jsonb;`,
  },
  {
    id: '0017_search_match_outcome',
    sql: `ALTER TABLE searches ADD COLUMN match_outcome jsonb;`,
  },
  {
    id: '0018_document_kind',
    sql: `ALTER TABLE documents ADD COLUMN kind text NOT NULL DEFAULT 'cv' CHECK (kind IN ('cv', 'job'));`,
  },
  {
    // A company's named lists of candidates, each CV with a note. A deleted CV leaves every list.
    id: '0019_shortlists',
    sql: `CREATE TABLE shortlists (
  id uuid PRIMARY KEY,
  company_id uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  name text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (company_id, name)
);
CREATE TABLE shortlist_items (
  shortlist_id uuid NOT NULL REFERENCES shortlists(id) ON DELETE CASCADE,
  document_id uuid NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
  note text,
  added_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (shortlist_id, document_id)
);
CREATE INDEX shortlist_items_document ON shortlist_items(document_id);`,
  },
  {
    // A company's saved searches, run again once CVs arrive: each CV read (completed) waits in
    // saved_search_arrivals until a run has looked for it, and the ones that entered a saved
    // search's first page are kept as its new matches. Arrivals are recorded only for a company
    // that has a saved search, so the others pay nothing.
    id: '0020_saved_searches',
    sql: `CREATE TABLE saved_searches (
  id uuid PRIMARY KEY,
  company_id uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  name text NOT NULL,
  search_type text NOT NULL,
  query text NOT NULL,
  filters jsonb,
  resolved_filter jsonb,
  top_k integer NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (company_id, name)
);
CREATE TABLE saved_search_matches (
  saved_search_id uuid NOT NULL REFERENCES saved_searches(id) ON DELETE CASCADE,
  document_id uuid NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
  rank integer NOT NULL,
  score double precision NOT NULL,
  arrived_at timestamptz NOT NULL,
  found_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (saved_search_id, document_id)
);
CREATE INDEX saved_search_matches_arrived ON saved_search_matches(saved_search_id, arrived_at DESC);
CREATE INDEX saved_search_matches_document ON saved_search_matches(document_id);
CREATE TABLE saved_search_arrivals (
  document_id uuid PRIMARY KEY REFERENCES documents(id) ON DELETE CASCADE,
  company_id uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  arrived_at timestamptz NOT NULL DEFAULT now(),
  claimed_until timestamptz
);
CREATE INDEX saved_search_arrivals_due ON saved_search_arrivals(arrived_at);
CREATE FUNCTION saved_search_arrival() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM saved_searches s WHERE s.company_id = NEW.company_id) THEN
    INSERT INTO saved_search_arrivals (document_id, company_id) VALUES (NEW.id, NEW.company_id) ON CONFLICT (document_id) DO NOTHING;
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER documents_saved_search_arrival AFTER UPDATE OF status ON documents FOR EACH ROW
  WHEN (NEW.status = 'completed' AND OLD.status IS DISTINCT FROM NEW.status AND NEW.kind = 'cv')
  EXECUTE FUNCTION saved_search_arrival();`,
  },
  {
    // A saved searches' run claims one company's arrivals under a token, so that only it lets them
    // go; how often they were claimed puts a batch that keeps failing behind the others.
    id: '0021_saved_search_claims',
    sql: `ALTER TABLE saved_search_arrivals ADD COLUMN claimed_by uuid, ADD COLUMN attempts integer NOT NULL DEFAULT 0;
CREATE INDEX saved_search_arrivals_claimed ON saved_search_arrivals(claimed_by);
CREATE INDEX saved_search_matches_found ON saved_search_matches(saved_search_id, found_at DESC);`,
  },
];

/** Any number for the advisory lock that lets one process migrate while the others wait. */
const MIGRATION_LOCK = 727_001;

/** Applies pending migrations in one transaction; safe when several services start at once. */
export async function migrate(sql: SqlClient): Promise<string[]> {
  return sql.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await tx.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (id text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`);
    const applied = new Set((await tx.query<{ id: string }>('SELECT id FROM schema_migrations')).map((r) => r.id));
    const ran: string[] = [];
    for (const migration of MIGRATIONS) {
      if (applied.has(migration.id)) continue;
      await tx.exec(migration.sql);
      await tx.query('INSERT INTO schema_migrations (id) VALUES ($1)', [migration.id]);
      ran.push(migration.id);
    }
    return ran;
  });
}
