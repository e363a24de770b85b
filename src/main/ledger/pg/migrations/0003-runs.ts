/**
 * Payment runs on the team ledger (issue #16): the runs, their rows and waves, with what the database itself
 * guarantees whatever a desk sends:
 * - identity: `db_user` of a run, `updated_by` of a row and every approval field come from session_user (triggers);
 * - four-eyes: a run whose largest row or total is above the team's threshold is approved only by a role other than
 *   the one that asked and the one that imported it, for the exact rows asked for (the rows are frozen while an
 *   approval is asked or granted; a change needs the approval voided first) — DPX01/DPX02/DPX03 as for payments;
 * - sending: a row becomes `queued`/`in_flight` only while its run is approved (four-eyes included) and creating,
 *   and a withdrawal carrying an in-flight row's local id is inserted only then, with the row's amount; such a
 *   row needs no per-payment approval (the run's covers it);
 * - audit only through `append_audit` (the app writes run.* entries in the same transaction); no DELETE;
 * - every change is announced on `depix_runs` (LISTEN) for other desks' screens.
 */

/** A function, not a constant: schema.ts (which owns these names) imports this file. */
export function runsMigrationSql(names: {
  SCHEMA: string
  ANALYST_GROUP: string
  ISO_NOW_SQL: string
}): string {
  const { SCHEMA, ANALYST_GROUP, ISO_NOW_SQL } = names
  return `
CREATE TABLE runs (
  run_id text PRIMARY KEY,
  profile text NOT NULL,
  operator text NOT NULL,
  db_user text NOT NULL,
  name text NOT NULL,
  created_at text NOT NULL,
  updated_at text NOT NULL,
  state text NOT NULL CHECK (state IN
    ('draft', 'approved', 'creating', 'awaiting_funding', 'paused', 'completed', 'cancelled')),
  approved_hash text,
  approved_at text,
  approved_by text,
  wave integer NOT NULL DEFAULT 0 CHECK (wave >= 0),
  row_count integer NOT NULL CHECK (row_count BETWEEN 1 AND 1000),
  approval_requested_hash text,
  approval_requested_by text,
  approval_requested_at text,
  -- The role creating the current wave: after a restart only that desk recovers the run.
  wave_by text,
  CHECK ((approved_hash IS NULL) = (approved_by IS NULL))
);
CREATE INDEX runs_by_created ON runs (created_at);

CREATE TABLE run_rows (
  run_id text NOT NULL REFERENCES runs (run_id),
  idx integer NOT NULL CHECK (idx >= 0),
  line integer NOT NULL,
  draft jsonb NOT NULL,
  payee jsonb NOT NULL,
  duplicate jsonb,
  decision text CHECK (decision IN ('keep', 'drop')),
  state text NOT NULL CHECK (state IN ('pending', 'queued', 'in_flight', 'submitted', 'held', 'dropped')),
  wave integer,
  local_id text UNIQUE,
  held_reason text,
  updated_by text NOT NULL,
  PRIMARY KEY (run_id, idx)
);

CREATE TABLE run_waves (
  run_id text NOT NULL REFERENCES runs (run_id),
  wave integer NOT NULL,
  planned integer NOT NULL,
  started_at text NOT NULL,
  funded_at text,
  funding_tx_id text,
  db_user text NOT NULL,
  PRIMARY KEY (run_id, wave)
);

-- Whether four-eyes applies to the run now: its largest row or its total (rows not dropped) is above the threshold.
CREATE FUNCTION run_needs_approval(p_run text) RETURNS boolean LANGUAGE sql STABLE
SET search_path = ${SCHEMA}, pg_temp AS $$
  SELECT t.approval_above_cents IS NOT NULL AND (
    coalesce(max((r.draft->'amount'->>'cents')::bigint), 0) > t.approval_above_cents
    OR coalesce(sum((r.draft->'amount'->>'cents')::bigint), 0) > t.approval_above_cents)
  FROM team_settings t
  LEFT JOIN run_rows r ON r.run_id = p_run AND r.decision IS DISTINCT FROM 'drop' AND r.state <> 'dropped'
  WHERE t.id = 1
  GROUP BY t.approval_above_cents
$$;

-- The run may send: approved for its current rows (by another role when four-eyes applies) and creating a wave.
CREATE FUNCTION run_sendable(r runs) RETURNS boolean LANGUAGE sql STABLE SET search_path = ${SCHEMA}, pg_temp AS $$
  SELECT r.state = 'creating' AND r.approved_hash IS NOT NULL AND (NOT run_needs_approval(r.run_id) OR (
    r.approval_requested_hash IS NOT DISTINCT FROM r.approved_hash AND r.approval_requested_by IS NOT NULL
    AND r.approved_by <> r.approval_requested_by AND r.approved_by <> r.db_user))
$$;

CREATE FUNCTION runs_guard() RETURNS trigger LANGUAGE plpgsql SET search_path = ${SCHEMA}, pg_temp AS $$
DECLARE
  now_iso text := ${ISO_NOW_SQL};
BEGIN
  IF TG_OP = 'INSERT' THEN
    NEW.db_user := session_user;
    NEW.created_at := now_iso;
    NEW.updated_at := now_iso;
    NEW.state := 'draft';
    NEW.wave := 0;
    NEW.approved_hash := NULL; NEW.approved_at := NULL; NEW.approved_by := NULL;
    NEW.approval_requested_hash := NULL; NEW.approval_requested_by := NULL; NEW.approval_requested_at := NULL;
    NEW.wave_by := NULL;
    RETURN NEW;
  END IF;
  NEW.run_id := OLD.run_id; NEW.profile := OLD.profile; NEW.operator := OLD.operator; NEW.db_user := OLD.db_user;
  NEW.name := OLD.name; NEW.created_at := OLD.created_at; NEW.row_count := OLD.row_count;
  NEW.updated_at := now_iso;
  IF OLD.state IN ('completed', 'cancelled') THEN
    RAISE EXCEPTION 'run % is %', OLD.run_id, OLD.state USING ERRCODE = '22023';
  END IF;
  -- Asking for approval: only a draft, by this role, now.
  IF NEW.approval_requested_hash IS DISTINCT FROM OLD.approval_requested_hash THEN
    IF NEW.approval_requested_hash IS NULL THEN
      NEW.approval_requested_by := NULL; NEW.approval_requested_at := NULL;
    ELSE
      IF OLD.state <> 'draft' OR OLD.approval_requested_hash IS NOT NULL THEN
        RAISE EXCEPTION 'run % cannot be asked for approval now', OLD.run_id USING ERRCODE = '22023';
      END IF;
      NEW.approval_requested_by := session_user; NEW.approval_requested_at := now_iso;
    END IF;
  ELSE
    NEW.approval_requested_by := OLD.approval_requested_by; NEW.approval_requested_at := OLD.approval_requested_at;
  END IF;
  -- Granting an approval: who and when come from the database; four-eyes when the threshold applies.
  IF NEW.approved_hash IS DISTINCT FROM OLD.approved_hash THEN
    IF NEW.approved_hash IS NULL THEN
      NEW.approved_at := NULL; NEW.approved_by := NULL;
      -- An approval voided (a row changed) voids the request too: the changed rows must be asked for again.
      NEW.approval_requested_hash := NULL; NEW.approval_requested_by := NULL; NEW.approval_requested_at := NULL;
    ELSE
      IF OLD.state <> 'draft' OR NEW.state <> 'approved' OR OLD.approved_hash IS NOT NULL THEN
        RAISE EXCEPTION 'run % is approved only from draft', OLD.run_id USING ERRCODE = '22023';
      END IF;
      IF run_needs_approval(OLD.run_id) THEN
        IF OLD.approval_requested_hash IS NULL THEN
          RAISE EXCEPTION 'run % needs another analyst''s approval', OLD.run_id USING ERRCODE = 'DPX01';
        END IF;
        IF session_user = OLD.approval_requested_by OR session_user = OLD.db_user THEN
          RAISE EXCEPTION 'the analyst who imported or asked for run % cannot approve it', OLD.run_id
            USING ERRCODE = 'DPX03';
        END IF;
        IF NEW.approved_hash <> OLD.approval_requested_hash THEN
          RAISE EXCEPTION 'run % approval does not match the rows asked for', OLD.run_id USING ERRCODE = 'DPX02';
        END IF;
      END IF;
      NEW.approved_by := session_user; NEW.approved_at := now_iso;
    END IF;
  ELSE
    NEW.approved_by := OLD.approved_by; NEW.approved_at := OLD.approved_at;
  END IF;
  IF NEW.state = 'approved' AND OLD.state = 'draft' AND NEW.approved_hash IS NULL THEN
    RAISE EXCEPTION 'run % is approved only with its rows hash', OLD.run_id USING ERRCODE = '22023';
  END IF;
  IF NEW.state = 'creating' AND OLD.state <> 'creating' THEN
    NEW.wave_by := session_user;
  ELSIF NEW.state <> 'creating' THEN
    NEW.wave_by := NULL;
  ELSE
    NEW.wave_by := OLD.wave_by;
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER runs_guard BEFORE INSERT OR UPDATE ON runs FOR EACH ROW EXECUTE FUNCTION runs_guard();
CREATE TRIGGER runs_no_delete BEFORE DELETE ON runs FOR EACH ROW EXECUTE FUNCTION forbid_change();

CREATE FUNCTION run_rows_guard() RETURNS trigger LANGUAGE plpgsql SET search_path = ${SCHEMA}, pg_temp AS $$
DECLARE
  r runs;
BEGIN
  NEW.updated_by := session_user;
  IF TG_OP = 'INSERT' THEN
    NEW.state := 'pending'; NEW.decision := NULL; NEW.wave := NULL; NEW.local_id := NULL; NEW.held_reason := NULL;
    RETURN NEW;
  END IF;
  NEW.run_id := OLD.run_id; NEW.idx := OLD.idx; NEW.line := OLD.line; NEW.payee := OLD.payee;
  NEW.duplicate := OLD.duplicate;
  SELECT * INTO r FROM runs WHERE run_id = OLD.run_id FOR UPDATE;
  -- What an approval names is frozen while one is asked for or granted.
  IF (NEW.draft IS DISTINCT FROM OLD.draft OR NEW.decision IS DISTINCT FROM OLD.decision)
     AND (r.state <> 'draft' OR r.approved_hash IS NOT NULL OR r.approval_requested_hash IS NOT NULL) THEN
    RAISE EXCEPTION 'row % of run % is covered by an approval', OLD.idx, OLD.run_id USING ERRCODE = 'DPX02';
  END IF;
  -- Moving back (a row requeued, recovered) sends nothing and stays allowed.
  IF ((NEW.state = 'queued' AND OLD.state = 'pending') OR (NEW.state = 'in_flight' AND OLD.state <> 'in_flight'))
     AND NOT run_sendable(r) THEN
    RAISE EXCEPTION 'run % is not approved and creating: its rows cannot be sent', OLD.run_id
      USING ERRCODE = 'DPX02';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER run_rows_guard BEFORE INSERT OR UPDATE ON run_rows FOR EACH ROW EXECUTE FUNCTION run_rows_guard();
CREATE TRIGGER run_rows_no_delete BEFORE DELETE ON run_rows FOR EACH ROW EXECUTE FUNCTION forbid_change();

CREATE FUNCTION run_waves_guard() RETURNS trigger LANGUAGE plpgsql SET search_path = ${SCHEMA}, pg_temp AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    NEW.db_user := session_user;
    NEW.started_at := ${ISO_NOW_SQL};
    NEW.funded_at := NULL;
    NEW.funding_tx_id := NULL;
    RETURN NEW;
  END IF;
  IF OLD.funded_at IS NOT NULL THEN
    RAISE EXCEPTION 'wave % of run % is already marked funded', OLD.wave, OLD.run_id USING ERRCODE = '22023';
  END IF;
  NEW.run_id := OLD.run_id; NEW.wave := OLD.wave; NEW.planned := OLD.planned; NEW.started_at := OLD.started_at;
  NEW.db_user := OLD.db_user;
  NEW.funded_at := ${ISO_NOW_SQL};
  RETURN NEW;
END $$;
CREATE TRIGGER run_waves_guard BEFORE INSERT OR UPDATE ON run_waves FOR EACH ROW EXECUTE FUNCTION run_waves_guard();
CREATE TRIGGER run_waves_no_delete BEFORE DELETE ON run_waves FOR EACH ROW EXECUTE FUNCTION forbid_change();

CREATE FUNCTION runs_notify() RETURNS trigger LANGUAGE plpgsql SET search_path = ${SCHEMA}, pg_temp AS $$
BEGIN
  PERFORM pg_notify('depix_runs', json_build_object('runId', NEW.run_id)::text);
  RETURN NULL;
END $$;
CREATE TRIGGER runs_notify AFTER INSERT OR UPDATE ON runs FOR EACH ROW EXECUTE FUNCTION runs_notify();
CREATE TRIGGER run_rows_notify AFTER UPDATE ON run_rows FOR EACH ROW EXECUTE FUNCTION runs_notify();

/*
 * A withdrawal that is a run's row (its local id committed on an in-flight row) is sent only while that run may
 * send, with the row's amount; the run's approval then stands for the per-payment one. Migration 1's rule is kept
 * for every other payment (the function is migration 1's plus the run clause).
 */
CREATE OR REPLACE FUNCTION withdrawals_guard() RETURNS trigger LANGUAGE plpgsql
SET search_path = ${SCHEMA}, pg_temp AS $$
DECLARE
  threshold bigint;
  a approvals;
  rr run_rows;
  rn runs;
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
    IF NEW.local_state = 'submitting' THEN
      RAISE EXCEPTION 'record % is still being submitted on its desk', NEW.local_id USING ERRCODE = '22023';
    END IF;
    RETURN NEW;
  END IF;
  SELECT * INTO rr FROM run_rows WHERE local_id = NEW.local_id FOR UPDATE;
  IF FOUND THEN
    SELECT * INTO rn FROM runs WHERE run_id = rr.run_id FOR SHARE;
    IF rr.state <> 'in_flight' OR NOT run_sendable(rn) OR NEW.approval_id IS NOT NULL
       OR NEW.amount_kind <> rr.draft->'amount'->>'kind'
       OR NEW.amount_cents <> (rr.draft->'amount'->>'cents')::bigint THEN
      RAISE EXCEPTION 'payment % is a row of run % that may not send it', NEW.local_id, rr.run_id
        USING ERRCODE = 'DPX02';
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

REVOKE ALL ON runs, run_rows, run_waves FROM PUBLIC;
REVOKE EXECUTE ON FUNCTION run_needs_approval(text), run_sendable(runs) FROM PUBLIC;
GRANT SELECT ON runs, run_rows, run_waves TO ${ANALYST_GROUP};
GRANT INSERT (run_id, profile, operator, name, row_count), UPDATE (state, approved_hash, approval_requested_hash, wave)
  ON runs TO ${ANALYST_GROUP};
GRANT INSERT (run_id, idx, line, draft, payee, duplicate),
  UPDATE (draft, decision, state, wave, local_id, held_reason) ON run_rows TO ${ANALYST_GROUP};
GRANT INSERT (run_id, wave, planned), UPDATE (funding_tx_id) ON run_waves TO ${ANALYST_GROUP};
GRANT EXECUTE ON FUNCTION run_needs_approval(text), run_sendable(runs) TO ${ANALYST_GROUP};
`
}
