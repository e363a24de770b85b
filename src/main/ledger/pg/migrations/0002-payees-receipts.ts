/**
 * Team ledger migration: the team's payee book and the receipts of its payments (issue #16, docs/history/DECISIONS.md
 * "Issue #16 — the payee book and stored receipts on the team ledger").
 *
 * Payees: one row per entry, never deleted (a removal is `removed_at`, so analysts need no DELETE and the row that
 * was paid stays readable); who and when come from the database (trigger), and `updated_at` strictly increases per
 * row so the value a desk read is its optimistic-concurrency token. A payee's keys are kept in `payee_keys` by a
 * SECURITY DEFINER trigger: its primary key makes "one owner per Pix key" hold across desks, and the partial unique
 * index "one live entry per CPF/CNPJ". The audit entry of each change (with the payee's state hash) is appended by
 * the desk in the same transaction (pg/payees.ts), through `append_audit`.
 *
 * Receipts: the bytes live in the table (bounded to RECEIPT_MAX_BYTES), so every desk reads the receipt the leader
 * fetched. The trigger sets who noticed and who fetched (`session_user`), checks that `sha256` is the hash of the
 * bytes, freezes a receipt once stored, and audits the storing itself.
 */
import { RECEIPT_MAX_BYTES } from '../../model/receipts'

/** Built by schema.ts with its own names (this file does not import schema.ts, which imports it). */
export function payeesReceiptsMigration(o: { schema: string; group: string; isoNow: string }): string {
  const { schema: SCHEMA, group: ANALYST_GROUP, isoNow: ISO_NOW_SQL } = o
  return `
CREATE TABLE payees (
  id text PRIMARY KEY DEFAULT gen_random_uuid()::text,
  name text NOT NULL,
  tax_number text NOT NULL,
  pix_keys jsonb NOT NULL CHECK (jsonb_typeof(pix_keys) = 'array'),
  euid text,
  notes text,
  search_text text NOT NULL,
  created_at text NOT NULL,
  created_by text NOT NULL,
  updated_at text NOT NULL,
  updated_by text NOT NULL,
  version bigint NOT NULL,
  removed_at text,
  removed_by text
);
CREATE UNIQUE INDEX payees_live_tax_number ON payees (tax_number) WHERE removed_at IS NULL;
CREATE INDEX payees_live_by_name ON payees (lower(name), id) WHERE removed_at IS NULL;

CREATE TABLE payee_keys (
  key text PRIMARY KEY,
  payee_id text NOT NULL REFERENCES payees (id),
  type text NOT NULL
);
CREATE INDEX payee_keys_by_payee ON payee_keys (payee_id);

CREATE FUNCTION payees_guard() RETURNS trigger LANGUAGE plpgsql SET search_path = ${SCHEMA}, pg_temp AS $$
DECLARE
  now_iso text := ${ISO_NOW_SQL};
BEGIN
  IF TG_OP = 'INSERT' THEN
    NEW.created_at := now_iso;
    NEW.created_by := session_user;
    NEW.updated_at := now_iso;
    NEW.updated_by := session_user;
    NEW.version := 1;
    NEW.removed_at := NULL;
    NEW.removed_by := NULL;
    RETURN NEW;
  END IF;
  IF OLD.removed_at IS NOT NULL THEN
    RAISE EXCEPTION 'payee % was removed', OLD.id USING ERRCODE = '42501';
  END IF;
  NEW.id := OLD.id;
  NEW.created_at := OLD.created_at;
  NEW.created_by := OLD.created_by;
  -- Strictly increasing per row: the updatedAt a desk read identifies the version it edited.
  IF now_iso <= OLD.updated_at THEN
    now_iso := to_char((OLD.updated_at::timestamptz + interval '1 millisecond') AT TIME ZONE 'UTC',
      'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"');
  END IF;
  NEW.updated_at := now_iso;
  NEW.updated_by := session_user;
  NEW.version := OLD.version + 1;
  IF NEW.removed_at IS NOT NULL THEN
    NEW.removed_at := now_iso;
    NEW.removed_by := session_user;
  ELSE
    NEW.removed_by := NULL;
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER payees_guard BEFORE INSERT OR UPDATE ON payees FOR EACH ROW EXECUTE FUNCTION payees_guard();
CREATE TRIGGER payees_no_delete BEFORE DELETE ON payees FOR EACH ROW EXECUTE FUNCTION forbid_change();

CREATE FUNCTION payees_keys() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER
SET search_path = ${SCHEMA}, pg_temp AS $$
BEGIN
  DELETE FROM payee_keys WHERE payee_id = NEW.id;
  IF NEW.removed_at IS NULL THEN
    INSERT INTO payee_keys (key, payee_id, type)
      SELECT k->>'key', NEW.id, k->>'type' FROM jsonb_array_elements(NEW.pix_keys) AS k;
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER payees_keys AFTER INSERT OR UPDATE ON payees FOR EACH ROW EXECUTE FUNCTION payees_keys();

CREATE TABLE receipts (
  local_id text PRIMARY KEY REFERENCES withdrawals (local_id),
  url text NOT NULL CHECK (length(url) BETWEEN 1 AND 2048),
  state text NOT NULL CHECK (state IN ('pending', 'stored', 'gave_up')),
  first_seen_at text NOT NULL,
  noticed_by text NOT NULL,
  attempts integer NOT NULL CHECK (attempts >= 0),
  next_attempt_at text,
  last_error text CHECK (length(last_error) <= 200),
  sha256 text CHECK (sha256 ~ '^[0-9a-f]{64}$'),
  size integer CHECK (size > 0),
  media_type text CHECK (media_type IN ('application/pdf', 'text/html')),
  bytes bytea CHECK (octet_length(bytes) BETWEEN 1 AND ${RECEIPT_MAX_BYTES}),
  fetched_at text,
  fetched_by text,
  CHECK ((state = 'stored') = (bytes IS NOT NULL)),
  CHECK (bytes IS NULL OR (sha256 IS NOT NULL AND media_type IS NOT NULL AND size = octet_length(bytes)))
);
CREATE INDEX receipts_due ON receipts (next_attempt_at) WHERE state = 'pending';

CREATE FUNCTION receipts_guard() RETURNS trigger LANGUAGE plpgsql SET search_path = ${SCHEMA}, pg_temp AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    -- Only the URL the service gave for the record: a desk never makes the leader fetch an address of its choosing.
    IF NEW.url IS DISTINCT FROM (SELECT w.last_remote->>'receiptUrl' FROM withdrawals w
                                 WHERE w.local_id = NEW.local_id) THEN
      RAISE EXCEPTION 'not the receipt URL the service gave for %', NEW.local_id USING ERRCODE = '22023';
    END IF;
    NEW.state := 'pending';
    NEW.first_seen_at := ${ISO_NOW_SQL};
    NEW.noticed_by := session_user;
    NEW.attempts := 0;
    NEW.next_attempt_at := NEW.first_seen_at;
    NEW.last_error := NULL;
    NEW.sha256 := NULL; NEW.size := NULL; NEW.media_type := NULL; NEW.bytes := NULL;
    NEW.fetched_at := NULL; NEW.fetched_by := NULL;
    RETURN NEW;
  END IF;
  IF OLD.state <> 'pending' THEN
    RAISE EXCEPTION 'receipt of % is final', OLD.local_id USING ERRCODE = '42501';
  END IF;
  NEW.local_id := OLD.local_id; NEW.url := OLD.url; NEW.first_seen_at := OLD.first_seen_at;
  NEW.noticed_by := OLD.noticed_by;
  IF NEW.state = 'stored' THEN
    IF NEW.bytes IS NULL OR NEW.sha256 IS DISTINCT FROM encode(sha256(NEW.bytes), 'hex') THEN
      RAISE EXCEPTION 'receipt bytes do not match their hash' USING ERRCODE = '22023';
    END IF;
    NEW.size := octet_length(NEW.bytes);
    NEW.fetched_at := ${ISO_NOW_SQL};
    NEW.fetched_by := session_user;
    NEW.next_attempt_at := NULL;
    NEW.last_error := NULL;
  ELSE
    NEW.bytes := NULL; NEW.sha256 := NULL; NEW.size := NULL; NEW.media_type := NULL;
    NEW.fetched_at := NULL; NEW.fetched_by := NULL;
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER receipts_guard BEFORE INSERT OR UPDATE ON receipts FOR EACH ROW EXECUTE FUNCTION receipts_guard();
CREATE TRIGGER receipts_no_delete BEFORE DELETE ON receipts FOR EACH ROW EXECUTE FUNCTION forbid_change();

-- LISTEN depix_receipts (ledger-store/pg/leader.ts): the leading desk fetches what any desk registers, and every
-- desk hears when a receipt was stored or given up.
CREATE FUNCTION receipts_notify() RETURNS trigger LANGUAGE plpgsql SET search_path = ${SCHEMA}, pg_temp AS $$
BEGIN
  IF TG_OP = 'INSERT' OR NEW.state IS DISTINCT FROM OLD.state THEN
    PERFORM pg_notify('depix_receipts', json_build_object('localId', NEW.local_id, 'state', NEW.state)::text);
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER receipts_notify AFTER INSERT OR UPDATE ON receipts
  FOR EACH ROW EXECUTE FUNCTION receipts_notify();

-- The chain says when which bytes (by hash) became the record's receipt, and which desk fetched them.
CREATE FUNCTION receipts_audit() RETURNS trigger LANGUAGE plpgsql SET search_path = ${SCHEMA}, pg_temp AS $$
BEGIN
  IF NEW.state = 'stored' AND OLD.state = 'pending' THEN
    PERFORM append_audit('receipt.stored', NEW.local_id,
      '{"fetchedAt":' || to_json(NEW.fetched_at)::text || ',"fetchedBy":' || to_json(NEW.fetched_by)::text
        || ',"mediaType":' || to_json(NEW.media_type)::text || ',"sha256":' || to_json(NEW.sha256)::text
        || ',"size":' || NEW.size::text || '}', NULL);
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER receipts_audit AFTER UPDATE ON receipts FOR EACH ROW EXECUTE FUNCTION receipts_audit();

REVOKE ALL ON payees, payee_keys, receipts FROM PUBLIC;
REVOKE EXECUTE ON FUNCTION payees_guard(), payees_keys(), receipts_guard(), receipts_audit(), receipts_notify()
  FROM PUBLIC;
GRANT SELECT ON payees, payee_keys, receipts TO ${ANALYST_GROUP};
GRANT INSERT (name, tax_number, pix_keys, euid, notes, search_text),
  UPDATE (name, tax_number, pix_keys, euid, notes, search_text, removed_at) ON payees TO ${ANALYST_GROUP};
GRANT INSERT (local_id, url),
  UPDATE (state, attempts, next_attempt_at, last_error, sha256, size, media_type, bytes) ON receipts
  TO ${ANALYST_GROUP};
`
}
