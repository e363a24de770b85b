/**
 * Team ledger migration: what an adversarial review of migrations 1–7 found a `depix_analysts` role could do with
 * plain SQL, closed in the database (issue #16, docs/history/DECISIONS.md "Issue #16 — adversarial review of the database
 * guarantees (t16adv)"; tests: test/main/ledger/adversarial-*.test.ts).
 *
 * - `observations.db_user` was only a DEFAULT: an analyst could write another role's name into it. A trigger now
 *   sets it from session_user, as deposit_observations already did.
 * - A record's `local_id` could be changed by UPDATE. Renaming a paid record freed its local id, and an approval
 *   names a local id: the same approval then let a second payment in. Local ids are now frozen, and a unique
 *   index makes an approval stand for one payment only, whatever else changes.
 * - What a payment is (profile, amount, and for a withdrawal its request, key and kind) could be changed by any
 *   analyst, who could then append an audit entry with the new state's hash: the chain checked again. Those columns
 *   are now frozen for analysts (the leading desk's tracker, which writes every record, never changes them).
 * - `run_rows` accepted an INSERT into a run already asked for approval, approved or sending: a row added after
 *   the approval was sent under it. Rows are now added only while nothing names them (a draft with no approval
 *   asked or granted; an imported run arrives without either).
 * - An in-flight row's `local_id` could be changed while it stayed in flight, so one approved row created a
 *   second payment. A row now takes a local id only on its way into flight (the move run_sendable checks), and
 *   never drops or changes one whose payment exists.
 * - TRUNCATE fires no row trigger: the owner (careless, not hostile) could empty the append-only tables. Analysts
 *   never had the privilege; a statement trigger now refuses it for everyone.
 * - `penalize_rate` took any wait, so one call stopped every desk for years. It is capped at the app's own cap on
 *   a Retry-After (MAX_RETRY_AFTER_SECONDS), and a NaN is no wait.
 *
 * New triggers only, no guard function replaced: their names sort after the guards' (`*_guard` < `*_harden`), so
 * they see the row the guard produced.
 */

const APPEND_ONLY_TABLES = [
  'audit_log',
  'audit_head',
  'approvals',
  'withdrawals',
  'observations',
  'deposits',
  'deposit_observations',
  'payees',
  'payee_keys',
  'receipts',
  'runs',
  'run_rows',
  'run_waves',
  'team_settings',
  'rate_buckets',
]

export function hardeningMigrationSql(names: { SCHEMA: string }): string {
  const { SCHEMA } = names
  // The app's cap on a Retry-After when this migration was written (MAX_RETRY_AFTER_SECONDS, api/retry.ts: one
  // hour), as a number: an applied migration's SQL must not change when that constant does.
  const maxMs = 3_600_000
  return `
CREATE FUNCTION set_db_user() RETURNS trigger LANGUAGE plpgsql SET search_path = ${SCHEMA}, pg_temp AS $$
BEGIN
  NEW.db_user := session_user;
  RETURN NEW;
END $$;
CREATE TRIGGER observations_identity BEFORE INSERT ON observations FOR EACH ROW EXECUTE FUNCTION set_db_user();

CREATE FUNCTION keep_local_id() RETURNS trigger LANGUAGE plpgsql SET search_path = ${SCHEMA}, pg_temp AS $$
BEGIN
  IF NEW.local_id IS DISTINCT FROM OLD.local_id THEN
    RAISE EXCEPTION 'the local id of % in % never changes', OLD.local_id, TG_TABLE_NAME USING ERRCODE = '42501';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER withdrawals_harden BEFORE UPDATE OF local_id ON withdrawals
  FOR EACH ROW EXECUTE FUNCTION keep_local_id();
CREATE TRIGGER deposits_harden BEFORE UPDATE OF local_id ON deposits FOR EACH ROW EXECUTE FUNCTION keep_local_id();
-- What a payment is: set once by its desk. Otherwise an analyst could change it and append an audit entry with the
-- matching state hash, and the chain would check. The owner is left alone: it can disable any trigger anyway, and
-- its edits are what the chain check is tested with.
CREATE FUNCTION keep_payment() RETURNS trigger LANGUAGE plpgsql SET search_path = ${SCHEMA}, pg_temp AS $$
BEGIN
  IF session_user <> (SELECT pg_get_userbyid(nspowner) FROM pg_namespace WHERE nspname = '${SCHEMA}')
     AND (NEW.profile IS DISTINCT FROM OLD.profile OR NEW.amount_cents IS DISTINCT FROM OLD.amount_cents
       OR (TG_TABLE_NAME = 'withdrawals' AND (to_jsonb(NEW) -> 'request' IS DISTINCT FROM to_jsonb(OLD) -> 'request'
         OR to_jsonb(NEW) ->> 'pix_key' IS DISTINCT FROM to_jsonb(OLD) ->> 'pix_key'
         OR to_jsonb(NEW) ->> 'amount_kind' IS DISTINCT FROM to_jsonb(OLD) ->> 'amount_kind'))) THEN
    RAISE EXCEPTION 'what record % pays never changes', OLD.local_id USING ERRCODE = '42501';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER withdrawals_keep_payment BEFORE UPDATE ON withdrawals FOR EACH ROW EXECUTE FUNCTION keep_payment();
CREATE TRIGGER deposits_keep_payment BEFORE UPDATE ON deposits FOR EACH ROW EXECUTE FUNCTION keep_payment();
CREATE UNIQUE INDEX withdrawals_one_per_approval ON withdrawals (approval_id) WHERE approval_id IS NOT NULL;

CREATE FUNCTION run_rows_harden() RETURNS trigger LANGUAGE plpgsql SET search_path = ${SCHEMA}, pg_temp AS $$
DECLARE
  r runs;
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT * INTO r FROM runs WHERE run_id = NEW.run_id FOR SHARE;
    IF r.approved_hash IS NOT NULL OR r.approval_requested_hash IS NOT NULL
       OR (r.imported_from IS NULL AND r.state <> 'draft') THEN
      RAISE EXCEPTION 'run % is asked for approval or past its draft: no row may be added', NEW.run_id
        USING ERRCODE = 'DPX02';
    END IF;
    RETURN NEW;
  END IF;
  IF NEW.local_id IS NOT NULL AND NEW.local_id IS DISTINCT FROM OLD.local_id
     AND NOT (NEW.state = 'in_flight' AND OLD.state <> 'in_flight') THEN
    RAISE EXCEPTION 'row % of run % takes a local id only on its way into flight', OLD.idx, OLD.run_id
      USING ERRCODE = 'DPX02';
  END IF;
  IF OLD.local_id IS NOT NULL AND NEW.local_id IS DISTINCT FROM OLD.local_id
     AND EXISTS (SELECT 1 FROM withdrawals w WHERE w.local_id = OLD.local_id) THEN
    RAISE EXCEPTION 'row % of run % was paid as %: it keeps that local id', OLD.idx, OLD.run_id, OLD.local_id
      USING ERRCODE = 'DPX02';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER run_rows_harden BEFORE INSERT OR UPDATE ON run_rows FOR EACH ROW EXECUTE FUNCTION run_rows_harden();

CREATE FUNCTION forbid_truncate() RETURNS trigger LANGUAGE plpgsql SET search_path = ${SCHEMA}, pg_temp AS $$
BEGIN
  RAISE EXCEPTION '% is never truncated', TG_TABLE_NAME USING ERRCODE = '42501';
END $$;
${APPEND_ONLY_TABLES.map(
  (t) =>
    `CREATE TRIGGER ${t}_no_truncate BEFORE TRUNCATE ON ${t} FOR EACH STATEMENT EXECUTE FUNCTION forbid_truncate();`,
).join('\n')}

CREATE OR REPLACE FUNCTION penalize_rate(p_endpoint text, p_ms double precision) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = ${SCHEMA}, pg_temp AS $$
DECLARE
  ms double precision := CASE WHEN p_ms IS NULL OR p_ms = 'NaN'::double precision THEN 0
                              ELSE least(greatest(p_ms, 0), ${maxMs}) END;
BEGIN
  UPDATE rate_buckets SET tokens = 1, at = clock_timestamp() + make_interval(secs => ms / 1000.0)
  WHERE endpoint = p_endpoint AND at < clock_timestamp() + make_interval(secs => ms / 1000.0);
END $$;

REVOKE EXECUTE ON FUNCTION set_db_user(), keep_local_id(), keep_payment(), run_rows_harden(), forbid_truncate() FROM PUBLIC;
`
}
