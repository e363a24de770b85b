/**
 * Migration 1: the team ledger's base schema (settings, the audit chain and its one way in, payments, approvals,
 * observations, the shared rate budget and the analysts' privileges). Shipped: never edited (a database that ran it
 * keeps it; the next change is a new numbered file).
 */
import { DEFAULT_RATE_LIMITS } from '../../../../shared/api-limits'
import { GENESIS_HASH as GENESIS } from '../../model/genesis'

export function baseMigrationSql(o: { SCHEMA: string; ANALYST_GROUP: string; ISO_NOW_SQL: string }): string {
  const { SCHEMA, ANALYST_GROUP, ISO_NOW_SQL } = o
  const rateRows = Object.entries(DEFAULT_RATE_LIMITS)
    .map(([e, n]) => `('${e}', ${n}, ${n}, clock_timestamp())`)
    .join(',\n  ')
  return `
CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA ${SCHEMA};
CREATE TABLE team_settings (
  id integer PRIMARY KEY CHECK (id = 1),
  -- Payments whose amount is above this many cents wait for another analyst's approval; 0 = all; NULL = none.
  approval_above_cents bigint CHECK (approval_above_cents IS NULL OR approval_above_cents >= 0),
  updated_by text NOT NULL DEFAULT session_user
);
INSERT INTO team_settings (id) VALUES (1);

CREATE TABLE audit_log (
  seq bigint PRIMARY KEY,
  at text NOT NULL,
  operator text NOT NULL,
  action text NOT NULL,
  subject text,
  details text NOT NULL,
  prev_hash text NOT NULL,
  hash text NOT NULL,
  state_hash text
);
CREATE INDEX audit_by_subject ON audit_log (subject, seq);
CREATE TABLE audit_head (id integer PRIMARY KEY CHECK (id = 1), seq bigint NOT NULL, hash text NOT NULL);
INSERT INTO audit_head VALUES (1, 0, '${GENESIS}');

CREATE FUNCTION forbid_change() RETURNS trigger LANGUAGE plpgsql SET search_path = ${SCHEMA}, pg_temp AS $$
BEGIN
  RAISE EXCEPTION '% is append-only', TG_TABLE_NAME USING ERRCODE = '42501';
END $$;
CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON audit_log
  FOR EACH ROW EXECUTE FUNCTION forbid_change();
CREATE TRIGGER audit_head_no_delete BEFORE DELETE ON audit_head FOR EACH ROW EXECUTE FUNCTION forbid_change();

/*
 * The one way in. hash = sha256(JSON.stringify([seq, at, operator, action, subject, details, prev_hash,
 * state_hash?])) exactly as auditHash computes it: to_json(text) escapes like JSON.stringify (PostgreSQL text
 * holds neither NUL nor lone surrogates), numbers are plain integers. details must already be canonical JSON
 * (canonical-json.ts): a verifier re-canonicalises it, so anything else breaks the chain visibly.
 */
CREATE FUNCTION append_audit(p_action text, p_subject text, p_details text, p_state_hash text)
RETURNS audit_log LANGUAGE plpgsql SECURITY DEFINER SET search_path = ${SCHEMA}, pg_temp AS $$
DECLARE
  h audit_head;
  r audit_log;
BEGIN
  IF p_action IS NULL OR p_action = '' THEN
    RAISE EXCEPTION 'audit entry needs an action' USING ERRCODE = '22023';
  END IF;
  IF p_details IS NULL OR jsonb_typeof(p_details::jsonb) <> 'object' THEN
    RAISE EXCEPTION 'audit details must be a JSON object' USING ERRCODE = '22023';
  END IF;
  SELECT * INTO h FROM audit_head WHERE id = 1 FOR UPDATE;
  r.seq := h.seq + 1;
  r.at := ${ISO_NOW_SQL};
  r.operator := session_user;
  r.action := p_action;
  r.subject := p_subject;
  r.details := p_details;
  r.prev_hash := h.hash;
  r.state_hash := nullif(p_state_hash, '');
  r.hash := encode(sha256(convert_to(
    '[' || r.seq::text || ',' || to_json(r.at)::text || ',' || to_json(r.operator)::text || ','
      || to_json(r.action)::text || ',' || coalesce(to_json(r.subject)::text, 'null') || ','
      || to_json(r.details)::text || ',' || to_json(r.prev_hash)::text
      || CASE WHEN r.state_hash IS NULL THEN '' ELSE ',' || to_json(r.state_hash)::text END || ']',
    'UTF8')), 'hex');
  INSERT INTO audit_log VALUES (r.*);
  UPDATE audit_head SET seq = r.seq, hash = r.hash WHERE id = 1;
  RETURN r;
END $$;

CREATE TABLE approvals (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  local_id text NOT NULL UNIQUE,
  profile text NOT NULL,
  request jsonb NOT NULL,
  pix_key text NOT NULL,
  amount_kind text NOT NULL CHECK (amount_kind IN ('deposit', 'payout')),
  amount_cents bigint NOT NULL CHECK (amount_cents > 0),
  note text,
  requested_by text NOT NULL,
  requested_at text NOT NULL,
  state text NOT NULL CHECK (state IN ('pending', 'approved', 'rejected')),
  decided_by text,
  decided_at text,
  decision_note text,
  CHECK (decided_by IS NULL OR decided_by <> requested_by),
  CHECK ((state = 'pending') = (decided_by IS NULL))
);
CREATE INDEX approvals_pending ON approvals (requested_at) WHERE state = 'pending';

CREATE FUNCTION approvals_guard() RETURNS trigger LANGUAGE plpgsql SET search_path = ${SCHEMA}, pg_temp AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    NEW.requested_by := session_user;
    NEW.requested_at := ${ISO_NOW_SQL};
    NEW.state := 'pending';
    NEW.decided_by := NULL;
    NEW.decided_at := NULL;
    NEW.decision_note := NULL;
    RETURN NEW;
  END IF;
  IF OLD.state <> 'pending' THEN
    RAISE EXCEPTION 'approval % was already decided', OLD.id USING ERRCODE = 'DPX04';
  END IF;
  IF NEW.state NOT IN ('approved', 'rejected') THEN
    RAISE EXCEPTION 'an approval is decided as approved or rejected' USING ERRCODE = '22023';
  END IF;
  IF session_user = OLD.requested_by THEN
    RAISE EXCEPTION 'the analyst who requested a payment cannot decide its approval' USING ERRCODE = 'DPX03';
  END IF;
  -- Only the decision changes; who and when come from the database.
  NEW.id := OLD.id; NEW.local_id := OLD.local_id; NEW.profile := OLD.profile; NEW.request := OLD.request;
  NEW.pix_key := OLD.pix_key; NEW.amount_kind := OLD.amount_kind; NEW.amount_cents := OLD.amount_cents;
  NEW.note := OLD.note; NEW.requested_by := OLD.requested_by; NEW.requested_at := OLD.requested_at;
  NEW.decided_by := session_user;
  NEW.decided_at := ${ISO_NOW_SQL};
  RETURN NEW;
END $$;
CREATE TRIGGER approvals_guard BEFORE INSERT OR UPDATE ON approvals FOR EACH ROW EXECUTE FUNCTION approvals_guard();
CREATE TRIGGER approvals_no_delete BEFORE DELETE ON approvals FOR EACH ROW EXECUTE FUNCTION forbid_change();

-- Every request and decision is audited by the database itself (details written in canonical key order).
CREATE FUNCTION approvals_audit() RETURNS trigger LANGUAGE plpgsql SET search_path = ${SCHEMA}, pg_temp AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM append_audit('approval.requested', NEW.local_id,
      '{"amountCents":' || NEW.amount_cents::text || ',"amountKind":' || to_json(NEW.amount_kind)::text
        || ',"approvalId":' || to_json(NEW.id::text)::text || ',"pixKey":' || to_json(NEW.pix_key)::text
        || ',"profile":' || to_json(NEW.profile)::text || '}', NULL);
  ELSE
    PERFORM append_audit('approval.' || NEW.state, NEW.local_id,
      '{"approvalId":' || to_json(NEW.id::text)::text || ',"note":' || coalesce(to_json(NEW.decision_note)::text, 'null')
        || ',"requestedBy":' || to_json(NEW.requested_by)::text || '}', NULL);
  END IF;
  -- Every desk's approvals queue and notifications: LISTEN depix_approvals.
  PERFORM pg_notify('depix_approvals', json_build_object('id', NEW.id, 'localId', NEW.local_id,
    'state', NEW.state, 'requestedBy', NEW.requested_by, 'decidedBy', NEW.decided_by)::text);
  RETURN NULL;
END $$;
CREATE TRIGGER approvals_audit AFTER INSERT OR UPDATE ON approvals FOR EACH ROW EXECUTE FUNCTION approvals_audit();

CREATE TABLE withdrawals (
  id bigserial PRIMARY KEY,
  local_id text NOT NULL UNIQUE,
  profile text NOT NULL,
  operator text NOT NULL,
  db_user text NOT NULL,
  created_at text NOT NULL,
  updated_at text NOT NULL,
  local_state text NOT NULL
    CHECK (local_state IN ('submitting', 'created', 'rejected', 'outcome_unknown', 'not_created')),
  request jsonb NOT NULL,
  pix_key text NOT NULL,
  amount_kind text NOT NULL CHECK (amount_kind IN ('deposit', 'payout')),
  amount_cents bigint NOT NULL,
  create_response jsonb,
  remote_id text UNIQUE,
  remote_status text,
  remote_status_at text,
  remote_checked_at text,
  last_remote jsonb,
  deposit_address text,
  deposit_amount_cents bigint,
  payout_amount_cents bigint,
  expiration text,
  funded_at text,
  funding_tx_id text,
  refund jsonb,
  receiver_name text,
  error jsonb,
  request_id text,
  flags jsonb NOT NULL DEFAULT '[]',
  remote_status_norm text,
  display_status text NOT NULL,
  has_refund boolean NOT NULL,
  is_open boolean NOT NULL,
  search_text text NOT NULL,
  approval_id uuid REFERENCES approvals (id),
  -- Set by the import of a desk ledger: where the record came from (ledger id and file name).
  imported_from text,
  CHECK (local_state <> 'created' OR remote_id IS NOT NULL)
);
-- The listing's page is a short backward index scan; its total is the costly part. These indexes carry the folded
-- search text, so "status + date range + text" is counted by an index-only scan instead of intersecting with the
-- trigram index (which matches a common surname on a fifth of the table).
CREATE INDEX withdrawals_list_ps ON withdrawals (profile, display_status, created_at, id) INCLUDE (search_text);
CREATE INDEX withdrawals_list_s ON withdrawals (display_status, created_at, id) INCLUDE (search_text);
CREATE INDEX withdrawals_list_c ON withdrawals (created_at, id) INCLUDE (search_text, display_status, profile);
CREATE INDEX withdrawals_by_updated ON withdrawals (updated_at, id);
CREATE INDEX withdrawals_by_amount ON withdrawals (amount_cents, id);
CREATE INDEX withdrawals_by_state ON withdrawals (local_state, db_user);
CREATE INDEX withdrawals_similar ON withdrawals (lower(pix_key), amount_kind, amount_cents, created_at);
CREATE INDEX withdrawals_open ON withdrawals (created_at) WHERE is_open;
CREATE INDEX withdrawals_search ON withdrawals USING gin (search_text gin_trgm_ops);

CREATE FUNCTION withdrawals_guard() RETURNS trigger LANGUAGE plpgsql SET search_path = ${SCHEMA}, pg_temp AS $$
DECLARE
  threshold bigint;
  a approvals;
BEGIN
  IF TG_OP = 'UPDATE' THEN
    NEW.db_user := OLD.db_user;
    NEW.created_at := OLD.created_at;
    NEW.approval_id := OLD.approval_id;
    NEW.imported_from := OLD.imported_from;
    RETURN NEW;
  END IF;
  NEW.db_user := session_user;
  IF NEW.imported_from IS NOT NULL THEN
    -- A desk's history, brought in after the fact: it never sends anything, so it needs no approval; an
    -- unfinished create cannot be imported (the desk resolves it first), so this is no way around four-eyes.
    IF NEW.local_state = 'submitting' THEN
      RAISE EXCEPTION 'record % is still being submitted on its desk', NEW.local_id USING ERRCODE = '22023';
    END IF;
    RETURN NEW;
  END IF;
  SELECT approval_above_cents INTO threshold FROM team_settings WHERE id = 1;
  IF threshold IS NOT NULL AND NEW.amount_cents > threshold THEN
    IF NEW.approval_id IS NULL THEN
      RAISE EXCEPTION 'payment % needs an approval', NEW.local_id USING ERRCODE = 'DPX01';
    END IF;
    SELECT * INTO a FROM approvals WHERE id = NEW.approval_id FOR UPDATE;
    IF NOT FOUND OR a.state <> 'approved' OR a.local_id <> NEW.local_id OR a.pix_key <> NEW.pix_key
       OR a.amount_kind <> NEW.amount_kind OR a.amount_cents <> NEW.amount_cents OR a.request <> NEW.request
       OR a.profile <> NEW.profile THEN
      RAISE EXCEPTION 'payment % does not match an approved request', NEW.local_id USING ERRCODE = 'DPX02';
    END IF;
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER withdrawals_guard BEFORE INSERT OR UPDATE ON withdrawals
  FOR EACH ROW EXECUTE FUNCTION withdrawals_guard();
CREATE TRIGGER withdrawals_no_delete BEFORE DELETE ON withdrawals FOR EACH ROW EXECUTE FUNCTION forbid_change();

-- Live status for every desk: LISTEN depix_records.
CREATE FUNCTION withdrawals_notify() RETURNS trigger LANGUAGE plpgsql SET search_path = ${SCHEMA}, pg_temp AS $$
BEGIN
  IF TG_OP = 'INSERT' OR NEW.updated_at IS DISTINCT FROM OLD.updated_at
     OR NEW.display_status IS DISTINCT FROM OLD.display_status THEN
    PERFORM pg_notify('depix_records', json_build_object('localId', NEW.local_id,
      'displayStatus', NEW.display_status, 'updatedAt', NEW.updated_at)::text);
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER withdrawals_notify AFTER INSERT OR UPDATE ON withdrawals
  FOR EACH ROW EXECUTE FUNCTION withdrawals_notify();

CREATE TABLE observations (
  id bigserial PRIMARY KEY,
  local_id text NOT NULL REFERENCES withdrawals (local_id),
  observed_at text NOT NULL,
  remote_status text NOT NULL,
  body jsonb,
  request_id text,
  nonce text,
  applied boolean NOT NULL,
  db_user text NOT NULL DEFAULT session_user
);
CREATE INDEX observations_by_record ON observations (local_id, id);
CREATE TRIGGER observations_append_only BEFORE UPDATE OR DELETE ON observations
  FOR EACH ROW EXECUTE FUNCTION forbid_change();

/*
 * The account's shared rate budget: one token bucket per endpoint (docs/API-CONTRACT.md#s8-1 model: capacity one minute's worth,
 * continuous refill, burst kept a little short of it). Taken atomically by take_rate_token; the owner may lower
 * per_minute (a team allowance).
 */
CREATE TABLE rate_buckets (
  endpoint text PRIMARY KEY,
  per_minute double precision NOT NULL CHECK (per_minute > 0),
  tokens double precision NOT NULL,
  at timestamptz NOT NULL
);
INSERT INTO rate_buckets (endpoint, per_minute, tokens, at) VALUES
  ${rateRows};

-- 0 when a token was taken; otherwise how many ms until one is due (nothing taken).
CREATE FUNCTION take_rate_token(p_endpoint text) RETURNS double precision
LANGUAGE plpgsql SECURITY DEFINER SET search_path = ${SCHEMA}, pg_temp AS $$
DECLARE
  b rate_buckets;
  t timestamptz := clock_timestamp();
  cap double precision;
  lvl double precision;
BEGIN
  SELECT * INTO b FROM rate_buckets WHERE endpoint = p_endpoint FOR UPDATE;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'unknown endpoint %', p_endpoint USING ERRCODE = '22023';
  END IF;
  -- The burst is 5% (at least one token) short of a minute's worth: the service counts arrivals, we count
  -- grants, and the few hundred ms between the two on five desks must never add up to one call too many.
  cap := greatest(1, b.per_minute - ceil(b.per_minute * 0.05));
  lvl := least(cap, b.tokens + extract(epoch FROM (t - b.at)) * b.per_minute / 60.0);
  IF t >= b.at AND lvl >= 1 - 1e-9 THEN
    UPDATE rate_buckets SET tokens = lvl - 1, at = t WHERE endpoint = p_endpoint;
    RETURN 0;
  END IF;
  RETURN greatest(1, ceil((1 - lvl) * 60000.0 / b.per_minute));
END $$;

-- A 429 arrived on some desk: nothing leaves for anyone until the Retry-After passes, then one token.
CREATE FUNCTION penalize_rate(p_endpoint text, p_ms double precision) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = ${SCHEMA}, pg_temp AS $$
BEGIN
  UPDATE rate_buckets SET tokens = 1, at = clock_timestamp() + make_interval(secs => greatest(p_ms, 0) / 1000.0)
  WHERE endpoint = p_endpoint AND at < clock_timestamp() + make_interval(secs => greatest(p_ms, 0) / 1000.0);
END $$;

-- A timestamp the API sent, or NULL when it is not one (hostile text never aborts a listing).
CREATE FUNCTION safe_ts(t text) RETURNS timestamptz LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN t::timestamptz;
EXCEPTION WHEN others THEN
  RETURN NULL;
END $$;

REVOKE ALL ON ALL TABLES IN SCHEMA ${SCHEMA} FROM PUBLIC;
REVOKE EXECUTE ON ALL FUNCTIONS IN SCHEMA ${SCHEMA} FROM PUBLIC;
GRANT USAGE ON SCHEMA ${SCHEMA} TO ${ANALYST_GROUP};
GRANT SELECT ON ALL TABLES IN SCHEMA ${SCHEMA} TO ${ANALYST_GROUP};
GRANT INSERT, UPDATE ON withdrawals TO ${ANALYST_GROUP};
GRANT INSERT ON observations TO ${ANALYST_GROUP};
GRANT INSERT (local_id, profile, request, pix_key, amount_kind, amount_cents, note),
  UPDATE (state, decision_note) ON approvals TO ${ANALYST_GROUP};
GRANT USAGE ON ALL SEQUENCES IN SCHEMA ${SCHEMA} TO ${ANALYST_GROUP};
GRANT EXECUTE ON FUNCTION append_audit(text, text, text, text), take_rate_token(text), safe_ts(text),
  penalize_rate(text, double precision) TO ${ANALYST_GROUP};
`
}
