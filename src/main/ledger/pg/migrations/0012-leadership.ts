/**
 * Team ledger migration 12 (issue #25, and the leadership/rate items of #24): the tracker lead is a lease with
 * heartbeats on the server's clock, fenced writes, and rate penalties bounded and audited.
 *
 * - `tracker_lease`: one row. A desk takes it with `take_tracker_lease` when it is free or its expiry (server clock)
 *   has passed, renews it with its token every few seconds, and hands it back on a clean stop. An advisory lock
 *   held by a `psql` session, or a desk frozen with its connection still open, no longer stops the team: without
 *   heartbeats the lease lapses and another desk takes it. A lead that cannot renew stops tracking before its lease
 *   lapses (pg/leader.ts), and `tracker_fence` refuses the tracker's writes from any token but the current
 *   lease's, so a lead that did not notice it was replaced writes nothing.
 * - `rate_penalties`: every `penalize_rate` call, who made it, what it asked and what was applied. A call is capped
 *   at 5 minutes (the service's own longest Retry-After, a maintenance 503) and one role's penalties on one
 *   endpoint at 10 minutes in any 15: an analyst at `psql` can no longer stop every desk by calling it in a loop.
 *
 * Analysts read both tables (the token column excepted) and write them only through these functions.
 */

/** A call's cap and one role's cap per endpoint over the window, in ms (an applied migration's SQL never changes). */
export const PENALTY_CALL_MAX_MS = 300_000
export const PENALTY_ROLE_MAX_MS = 600_000
export const PENALTY_WINDOW_MS = 900_000
/** Bounds of a lease's length a desk may ask for. */
export const LEASE_MIN_MS = 1_000
export const LEASE_MAX_MS = 60_000

export function leadershipMigrationSql(names: { SCHEMA: string; ANALYST_GROUP: string }): string {
  const { SCHEMA, ANALYST_GROUP } = names
  const ttl = `make_interval(secs => least(greatest(coalesce(p_ttl_ms, 0), ${LEASE_MIN_MS}), ${LEASE_MAX_MS}) / 1000.0)`
  const serverMs = `(extract(epoch FROM clock_timestamp()) * 1000)::double precision`
  return `
CREATE TABLE tracker_lease (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  holder text NOT NULL,
  epoch bigint NOT NULL,
  token uuid NOT NULL,
  taken_at timestamptz NOT NULL,
  renewed_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL
);
-- The one row exists from the start (epoch 0: nobody has led), so takers wait on its row lock, which only a
-- caller of these functions can hold, not on an advisory lock any session could take.
INSERT INTO tracker_lease VALUES (true, '', 0, gen_random_uuid(), '-infinity', '-infinity', '-infinity');

-- The lease when free or lapsed (server clock); otherwise nothing taken. Always says the server's time, so desks
-- measure their clock's offset on the same round trip.
CREATE FUNCTION take_tracker_lease(p_ttl_ms integer) RETURNS jsonb
LANGUAGE plpgsql SECURITY DEFINER SET search_path = ${SCHEMA}, pg_temp SET lock_timeout = '2s' AS $$
DECLARE
  l tracker_lease;
  t timestamptz;
BEGIN
  -- A live lease is answered without a row lock: a session that calls this in a transaction it keeps open holds
  -- nothing the lead's renewals would wait on. Only a lapsed lease is locked, and checked again under the lock.
  IF (SELECT expires_at FROM tracker_lease) > clock_timestamp() THEN
    RETURN jsonb_build_object('token', NULL, 'serverMs', ${serverMs});
  END IF;
  SELECT * INTO l FROM tracker_lease FOR UPDATE;
  t := clock_timestamp();
  IF l.expires_at > t THEN
    RETURN jsonb_build_object('token', NULL, 'serverMs', ${serverMs});
  END IF;
  UPDATE tracker_lease SET holder = session_user, epoch = l.epoch + 1, token = gen_random_uuid(), taken_at = t,
    renewed_at = t, expires_at = t + ${ttl}
  RETURNING * INTO l;
  RETURN jsonb_build_object('token', l.token, 'epoch', l.epoch, 'serverMs', ${serverMs});
END $$;

-- The heartbeat: only the current, unexpired lease's holder extends it. A lapsed lease is never revived (another
-- desk may be taking it this very moment).
CREATE FUNCTION renew_tracker_lease(p_token uuid, p_ttl_ms integer) RETURNS jsonb
LANGUAGE plpgsql SECURITY DEFINER SET search_path = ${SCHEMA}, pg_temp SET lock_timeout = '2s' AS $$
DECLARE
  t timestamptz := clock_timestamp();
BEGIN
  UPDATE tracker_lease SET renewed_at = t, expires_at = t + ${ttl} WHERE token = p_token AND expires_at > t;
  RETURN jsonb_build_object('ok', FOUND, 'serverMs', ${serverMs});
END $$;

-- A clean stop hands the lead over at once; holder and epoch stay for the team status.
CREATE FUNCTION release_tracker_lease(p_token uuid) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = ${SCHEMA}, pg_temp SET lock_timeout = '2s' AS $$
BEGIN
  UPDATE tracker_lease SET expires_at = clock_timestamp() WHERE token = p_token AND expires_at > clock_timestamp();
END $$;

-- Called in the tracker's write transaction: refuses unless the token is the current lease's and it has not
-- lapsed. The row lock it takes keeps a taker out until the write commits.
CREATE FUNCTION tracker_fence(p_token uuid) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = ${SCHEMA}, pg_temp SET lock_timeout = '2s' AS $$
BEGIN
  PERFORM 1 FROM tracker_lease WHERE token = p_token AND expires_at > clock_timestamp() FOR SHARE;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'this desk no longer leads the tracker: its write is refused' USING ERRCODE = 'DPX40';
  END IF;
END $$;

CREATE TABLE rate_penalties (
  id bigserial PRIMARY KEY,
  at timestamptz NOT NULL,
  db_user text NOT NULL,
  endpoint text NOT NULL,
  asked_ms double precision,
  applied_ms integer NOT NULL CHECK (applied_ms >= 0)
);
CREATE INDEX rate_penalties_recent ON rate_penalties (db_user, endpoint, at);
CREATE TRIGGER rate_penalties_no_truncate BEFORE TRUNCATE ON rate_penalties
  FOR EACH STATEMENT EXECUTE FUNCTION forbid_truncate();

CREATE OR REPLACE FUNCTION penalize_rate(p_endpoint text, p_ms double precision) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = ${SCHEMA}, pg_temp AS $$
DECLARE
  t timestamptz;
  ms double precision := CASE WHEN p_ms IS NULL OR p_ms = 'NaN'::double precision THEN 0
                              ELSE least(greatest(p_ms, 0), ${PENALTY_CALL_MAX_MS}) END;
  used double precision;
  b rate_buckets;
  ends timestamptz;
  applied integer := 0;
BEGIN
  SELECT * INTO b FROM rate_buckets WHERE endpoint = p_endpoint FOR UPDATE;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'unknown endpoint %', p_endpoint USING ERRCODE = '22023';
  END IF;
  t := clock_timestamp();
  SELECT coalesce(sum(applied_ms), 0) INTO used FROM rate_penalties
    WHERE db_user = session_user AND endpoint = p_endpoint
      AND at > t - make_interval(secs => ${PENALTY_WINDOW_MS} / 1000.0);
  ends := t + make_interval(secs => floor(least(ms, greatest(0, ${PENALTY_ROLE_MAX_MS} - used))) / 1000.0);
  -- Only what lengthens the current block counts against the role.
  IF ends > b.at AND ends > t THEN
    applied := floor(extract(epoch FROM (ends - greatest(b.at, t))) * 1000);
    UPDATE rate_buckets SET tokens = 1, at = ends WHERE endpoint = p_endpoint;
  END IF;
  INSERT INTO rate_penalties (at, db_user, endpoint, asked_ms, applied_ms)
  VALUES (t, session_user, p_endpoint, CASE WHEN p_ms = 'NaN'::double precision THEN NULL ELSE p_ms END, applied);
END $$;

REVOKE ALL ON tracker_lease, rate_penalties FROM PUBLIC;
REVOKE EXECUTE ON FUNCTION take_tracker_lease(integer), renew_tracker_lease(uuid, integer),
  release_tracker_lease(uuid), tracker_fence(uuid) FROM PUBLIC;
GRANT SELECT (holder, epoch, taken_at, renewed_at, expires_at) ON tracker_lease TO ${ANALYST_GROUP};
GRANT SELECT ON rate_penalties TO ${ANALYST_GROUP};
GRANT EXECUTE ON FUNCTION take_tracker_lease(integer), renew_tracker_lease(uuid, integer),
  release_tracker_lease(uuid), tracker_fence(uuid) TO ${ANALYST_GROUP};
`
}
