/**
 * Team ledger migration (issue #16, t16rest): what "move a desk ledger into the team ledger" needs beyond
 * withdrawals and top-ups, and the approval threshold pushed to every desk.
 *
 * - Payees keep their desk id (withdrawals and run rows name it) and say where they came from (`imported_from`).
 * - Runs keep their id, state, rows and times when they come from a desk, but only in a state that cannot send:
 *   a desk's draft (or approved, not started) run arrives as a team draft with no approval — the team's four-eyes
 *   applies to it like to any other — and a completed or cancelled run arrives final. A run mid-wave is refused
 *   by the database as well as by the import (pg/desk-import.ts), and no imported row may be queued or in flight.
 * - `team_settings` announces a changed threshold on `depix_settings` (LISTEN in pg/leader.ts).
 *
 * `runs_guard` and `run_rows_guard` are replaced: each is migration-runs.ts's body plus the import clause at the
 * top of its INSERT branch (whoever changes them again must keep both).
 */
export function deskImportMigrationSql(names: {
  SCHEMA: string
  ANALYST_GROUP: string
  ISO_NOW_SQL: string
}): string {
  const { SCHEMA, ANALYST_GROUP, ISO_NOW_SQL } = names
  return `
ALTER TABLE payees ADD COLUMN imported_from text;
ALTER TABLE runs ADD COLUMN imported_from text;

CREATE OR REPLACE FUNCTION runs_guard() RETURNS trigger LANGUAGE plpgsql SET search_path = ${SCHEMA}, pg_temp AS $$
DECLARE
  now_iso text := ${ISO_NOW_SQL};
BEGIN
  IF TG_OP = 'INSERT' AND NEW.imported_from IS NOT NULL THEN
    IF NEW.state NOT IN ('draft', 'completed', 'cancelled') THEN
      RAISE EXCEPTION 'run % is % on its desk and cannot be imported', NEW.run_id, NEW.state USING ERRCODE = '22023';
    END IF;
    NEW.db_user := session_user;
    NEW.created_at := coalesce(NEW.created_at, now_iso);
    NEW.updated_at := now_iso;
    NEW.approved_hash := NULL; NEW.approved_at := NULL; NEW.approved_by := NULL;
    NEW.approval_requested_hash := NULL; NEW.approval_requested_by := NULL; NEW.approval_requested_at := NULL;
    NEW.wave_by := NULL;
    RETURN NEW;
  END IF;
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
  NEW.imported_from := OLD.imported_from;
  NEW.run_id := OLD.run_id; NEW.profile := OLD.profile; NEW.operator := OLD.operator; NEW.db_user := OLD.db_user;
  NEW.name := OLD.name; NEW.created_at := OLD.created_at; NEW.row_count := OLD.row_count;
  NEW.updated_at := now_iso;
  IF OLD.state IN ('completed', 'cancelled') THEN
    RAISE EXCEPTION 'run % is %', OLD.run_id, OLD.state USING ERRCODE = '22023';
  END IF;
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
  IF NEW.approved_hash IS DISTINCT FROM OLD.approved_hash THEN
    IF NEW.approved_hash IS NULL THEN
      NEW.approved_at := NULL; NEW.approved_by := NULL;
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

CREATE OR REPLACE FUNCTION run_rows_guard() RETURNS trigger LANGUAGE plpgsql
SET search_path = ${SCHEMA}, pg_temp AS $$
DECLARE
  r runs;
BEGIN
  NEW.updated_by := session_user;
  IF TG_OP = 'INSERT' THEN
    SELECT * INTO r FROM runs WHERE run_id = NEW.run_id;
    -- A desk's row keeps its history, but never arrives queued or in flight, nor in a draft as anything sent.
    IF r.imported_from IS NOT NULL AND r.db_user = session_user THEN
      IF NEW.state IN ('queued', 'in_flight') OR (r.state = 'draft' AND NEW.state NOT IN ('pending', 'dropped')) THEN
        RAISE EXCEPTION 'row % of run % is % and cannot be imported', NEW.idx, NEW.run_id, NEW.state
          USING ERRCODE = '22023';
      END IF;
      IF r.state = 'draft' THEN
        NEW.wave := NULL; NEW.local_id := NULL;
      END IF;
      RETURN NEW;
    END IF;
    NEW.state := 'pending'; NEW.decision := NULL; NEW.wave := NULL; NEW.local_id := NULL; NEW.held_reason := NULL;
    RETURN NEW;
  END IF;
  NEW.run_id := OLD.run_id; NEW.idx := OLD.idx; NEW.line := OLD.line; NEW.payee := OLD.payee;
  NEW.duplicate := OLD.duplicate;
  SELECT * INTO r FROM runs WHERE run_id = OLD.run_id FOR UPDATE;
  IF (NEW.draft IS DISTINCT FROM OLD.draft OR NEW.decision IS DISTINCT FROM OLD.decision)
     AND (r.state <> 'draft' OR r.approved_hash IS NOT NULL OR r.approval_requested_hash IS NOT NULL) THEN
    RAISE EXCEPTION 'row % of run % is covered by an approval', OLD.idx, OLD.run_id USING ERRCODE = 'DPX02';
  END IF;
  IF ((NEW.state = 'queued' AND OLD.state = 'pending') OR (NEW.state = 'in_flight' AND OLD.state <> 'in_flight'))
     AND NOT run_sendable(r) THEN
    RAISE EXCEPTION 'run % is not approved and creating: its rows cannot be sent', OLD.run_id
      USING ERRCODE = 'DPX02';
  END IF;
  RETURN NEW;
END $$;

GRANT INSERT (id, imported_from) ON payees TO ${ANALYST_GROUP};
GRANT INSERT (imported_from, state, wave, created_at) ON runs TO ${ANALYST_GROUP};
GRANT INSERT (decision, state, wave, local_id, held_reason) ON run_rows TO ${ANALYST_GROUP};

-- Every desk hears a new threshold at once (its status line and the approvals it asks for follow it).
CREATE FUNCTION team_settings_notify() RETURNS trigger LANGUAGE plpgsql SET search_path = ${SCHEMA}, pg_temp AS $$
BEGIN
  IF TG_OP = 'INSERT' OR NEW.approval_above_cents IS DISTINCT FROM OLD.approval_above_cents THEN
    PERFORM pg_notify('depix_settings', json_build_object('approvalAboveCents', NEW.approval_above_cents)::text);
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER team_settings_notify AFTER INSERT OR UPDATE ON team_settings
  FOR EACH ROW EXECUTE FUNCTION team_settings_notify();
REVOKE EXECUTE ON FUNCTION team_settings_notify() FROM PUBLIC;
`
}
