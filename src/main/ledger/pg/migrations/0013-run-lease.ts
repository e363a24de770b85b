/**
 * Team ledger migration 13 (issue #25): runs that cannot get stuck.
 *
 * - A run may end `partially_paid`: no row waits for a wave but some were not created (the run page retries or
 *   resolves them; it reopens as `approved` when one is retried).
 * - A row may be sent again only when its old payment is known not to exist: its local id is released (row back to
 *   `pending`) only while that withdrawal is `rejected` or `not_created` (migration 9 kept a row's local id for
 *   ever once a withdrawal carried it). The app adds the "passing cause" rule for rejections (runs/retry.ts).
 * - A lease on the creation of a run's wave, on the server's clock: a row goes into flight only while its desk's
 *   role holds an unexpired lease on the run (fencing: a desk that slept through its lease cannot send after another
 *   desk took over), and any role may claim a lease that has expired — the takeover of a run whose creating desk is
 *   gone. Leases are written only through SECURITY DEFINER functions; analysts read them.
 */
export function runLeaseMigrationSql(names: { SCHEMA: string; ANALYST_GROUP: string }): string {
  const { SCHEMA, ANALYST_GROUP } = names
  return `
ALTER TABLE runs DROP CONSTRAINT runs_state_check;
ALTER TABLE runs ADD CONSTRAINT runs_state_check CHECK (state IN
  ('draft', 'approved', 'creating', 'awaiting_funding', 'paused', 'completed', 'cancelled', 'partially_paid'));

CREATE OR REPLACE FUNCTION run_rows_harden() RETURNS trigger LANGUAGE plpgsql SET search_path = ${SCHEMA}, pg_temp AS $$
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
  -- A retry releases the local id of a payment known not to exist, and only back to waiting for a wave.
  IF OLD.local_id IS NOT NULL AND NEW.local_id IS DISTINCT FROM OLD.local_id
     AND EXISTS (SELECT 1 FROM withdrawals w WHERE w.local_id = OLD.local_id)
     AND NOT (NEW.local_id IS NULL AND NEW.state = 'pending' AND OLD.state = 'submitted'
              AND EXISTS (SELECT 1 FROM withdrawals w WHERE w.local_id = OLD.local_id
                          AND w.local_state IN ('rejected', 'not_created'))) THEN
    RAISE EXCEPTION 'row % of run % was paid as %: it keeps that local id', OLD.idx, OLD.run_id, OLD.local_id
      USING ERRCODE = 'DPX02';
  END IF;
  RETURN NEW;
END $$;

CREATE TABLE run_leases (
  run_id text PRIMARY KEY REFERENCES runs (run_id),
  holder text NOT NULL,
  expires_at timestamptz NOT NULL
);

-- The lease of a run as the server sees it now.
CREATE FUNCTION run_lease_of(p_run text, OUT holder text, OUT expires_at text, OUT live boolean)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = ${SCHEMA}, pg_temp AS $$
  SELECT l.holder,
         to_char(l.expires_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
         l.expires_at > clock_timestamp()
  FROM run_leases l WHERE l.run_id = p_run
$$;

-- The desk holding a live lease on a run took it over: it may turn the run's in-flight submissions of another role
-- into outcome_unknown (never created/rejected: only the service's answer, read by resolution, settles them).
CREATE OR REPLACE FUNCTION takes_over_submission(p_local_id text) RETURNS boolean LANGUAGE sql STABLE
SET search_path = ${SCHEMA}, pg_temp AS $$
  SELECT EXISTS (SELECT 1 FROM run_rows rr JOIN run_leases l ON l.run_id = rr.run_id
    WHERE rr.local_id = p_local_id AND l.holder = session_user AND l.expires_at > clock_timestamp())
$$;

-- The moves of runs and rows this migration adds to migration 11's tables (runs/service.ts, waves.ts, retry.ts):
-- a run ends partially paid and reopens when a row is retried; a wave cut on the observed lifetime sends its rows
-- not created back to waiting; a retried row waits again (its local id released only as run_rows_harden allows).
INSERT INTO run_moves VALUES
  ('awaiting_funding', 'partially_paid'), ('partially_paid', 'approved'), ('partially_paid', 'completed'),
  ('partially_paid', 'cancelled'), ('creating', 'approved')
  ON CONFLICT DO NOTHING;
INSERT INTO run_row_moves VALUES ('submitted', 'pending'), ('queued', 'pending') ON CONFLICT DO NOTHING;

-- Claims (or renews) the lease for p_ms from now, when nobody else holds a live one. A run left creating before
-- this migration has no lease: its last change stands for one, so a desk mid-wave during the upgrade keeps it.
CREATE FUNCTION run_lease_claim(p_run text, p_ms integer, OUT holder text, OUT expires_at text, OUT live boolean)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = ${SCHEMA}, pg_temp AS $$
DECLARE
  r runs;
  ms integer := least(greatest(coalesce(p_ms, 0), 1000), 600000);
  until timestamptz := clock_timestamp() + ms * interval '1 millisecond';
BEGIN
  SELECT * INTO r FROM runs WHERE run_id = p_run FOR UPDATE;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'no run %', p_run USING ERRCODE = '22023';
  END IF;
  IF NOT EXISTS (SELECT 1 FROM run_leases l WHERE l.run_id = p_run) THEN
    IF r.state = 'creating' AND r.wave_by IS DISTINCT FROM session_user
       AND safe_ts(r.updated_at) + ms * interval '1 millisecond' > clock_timestamp() THEN
      INSERT INTO run_leases VALUES (p_run, r.wave_by, safe_ts(r.updated_at) + ms * interval '1 millisecond');
    ELSE
      INSERT INTO run_leases VALUES (p_run, session_user, until);
    END IF;
  ELSE
    UPDATE run_leases l SET holder = session_user, expires_at = until
    WHERE l.run_id = p_run AND (l.holder = session_user OR l.expires_at <= clock_timestamp());
  END IF;
  SELECT o.holder, o.expires_at, o.live INTO holder, expires_at, live FROM run_lease_of(p_run) o;
END $$;

-- Gives the lease back (the wave ended here): another desk may claim it at once.
CREATE FUNCTION run_lease_release(p_run text) RETURNS void
LANGUAGE sql SECURITY DEFINER SET search_path = ${SCHEMA}, pg_temp AS $$
  UPDATE run_leases SET expires_at = clock_timestamp() WHERE run_id = p_run AND holder = session_user
    AND expires_at > clock_timestamp()
$$;

-- Fencing: a row goes into flight only under its run's live lease, held by this role.
CREATE FUNCTION run_rows_leased() RETURNS trigger LANGUAGE plpgsql SET search_path = ${SCHEMA}, pg_temp AS $$
BEGIN
  IF NEW.state = 'in_flight' AND OLD.state <> 'in_flight' AND NOT EXISTS (
       SELECT 1 FROM run_leases l WHERE l.run_id = OLD.run_id AND l.holder = session_user
         AND l.expires_at > clock_timestamp()) THEN
    RAISE EXCEPTION 'run % is not leased to %: its rows cannot be sent from here', OLD.run_id, session_user
      USING ERRCODE = 'DPX25';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER run_rows_leased BEFORE UPDATE ON run_rows FOR EACH ROW EXECUTE FUNCTION run_rows_leased();

REVOKE ALL ON run_leases FROM PUBLIC;
GRANT SELECT ON run_leases TO ${ANALYST_GROUP};
REVOKE EXECUTE ON FUNCTION run_lease_of(text), run_lease_claim(text, integer), run_lease_release(text),
  run_rows_leased() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION run_lease_of(text), run_lease_claim(text, integer), run_lease_release(text)
  TO ${ANALYST_GROUP};
`
}
