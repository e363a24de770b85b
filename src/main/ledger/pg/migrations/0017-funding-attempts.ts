/**
 * Team ledger migration 17 (issue #28): a payment is funded by at most one transaction on the whole team.
 *
 * A desk paying from the treasury wallet keeps its attempts (built, signed, broadcast, recorded) in a file of its
 * own; two desks could each build a transaction for the same payment. The team's guard is this table: one row per
 * (payment, attempt), and at most one row per payment that is not `cancelled` (a partial unique index). Written only
 * through the functions below (SECURITY DEFINER, analysts get EXECUTE and SELECT, nothing else):
 * - `funding_claim(attempt, local_ids[], txid)`: every payment or none; refused (SQLSTATE 23505) when another
 *   attempt holds one of them; the payments must be the team's.
 * - `funding_release(attempt)`: the claiming role gives its attempt up (cancelled before broadcast); nobody else can.
 * - `funding_recorded(attempt)`: the claiming role's txid is on every payment; the row keeps holding them.
 * Any analyst can claim a payment (that is building a payment); claiming one only blocks others, which the table
 * shows with who claimed it — the owner releases a claim nobody will finish (UPDATE as the owner).
 */
export function fundingAttemptsMigrationSql(names: { SCHEMA: string; ANALYST_GROUP: string }): string {
  const { SCHEMA, ANALYST_GROUP } = names
  const sp = `SET search_path = ${SCHEMA}, pg_temp`
  return `
CREATE TABLE funding_attempts (
  local_id text NOT NULL REFERENCES withdrawals (local_id),
  attempt_id uuid NOT NULL,
  txid text NOT NULL CHECK (txid ~ '^[0-9a-f]{64}$'),
  state text NOT NULL DEFAULT 'live' CHECK (state IN ('live', 'recorded', 'cancelled')),
  claimed_by text NOT NULL DEFAULT session_user,
  claimed_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  updated_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  PRIMARY KEY (attempt_id, local_id)
);
-- The guard itself: one attempt that is not known to be cancelled per payment.
CREATE UNIQUE INDEX funding_attempts_one_live ON funding_attempts (local_id) WHERE state <> 'cancelled';
REVOKE ALL ON funding_attempts FROM PUBLIC;
GRANT SELECT ON funding_attempts TO ${ANALYST_GROUP};

CREATE FUNCTION funding_claim(p_attempt uuid, p_local_ids text[], p_txid text) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER ${sp} AS $$
DECLARE
  holder record;
BEGIN
  IF p_local_ids IS NULL OR cardinality(p_local_ids) = 0 THEN
    RAISE EXCEPTION 'a funding attempt pays at least one payment' USING ERRCODE = '22023';
  END IF;
  -- Serializes claims of the same payments (the unique index would too; this names the holder).
  PERFORM 1 FROM withdrawals WHERE local_id = ANY (p_local_ids) ORDER BY local_id FOR UPDATE;
  SELECT f.local_id, f.attempt_id INTO holder FROM funding_attempts f
    WHERE f.local_id = ANY (p_local_ids) AND f.state <> 'cancelled' AND f.attempt_id <> p_attempt LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION 'payment % is already in funding attempt %', holder.local_id, holder.attempt_id
      USING ERRCODE = '23505', DETAIL = holder.local_id;
  END IF;
  INSERT INTO funding_attempts (local_id, attempt_id, txid)
    SELECT DISTINCT l, p_attempt, p_txid FROM unnest(p_local_ids) AS l
    ON CONFLICT (attempt_id, local_id) DO NOTHING;
END $$;

CREATE FUNCTION funding_release(p_attempt uuid) RETURNS integer
LANGUAGE plpgsql SECURITY DEFINER ${sp} AS $$
DECLARE
  n integer;
BEGIN
  UPDATE funding_attempts SET state = 'cancelled', updated_at = clock_timestamp()
    WHERE attempt_id = p_attempt AND state = 'live' AND claimed_by = session_user;
  GET DIAGNOSTICS n = ROW_COUNT;
  RETURN n;
END $$;

CREATE FUNCTION funding_recorded(p_attempt uuid) RETURNS integer
LANGUAGE plpgsql SECURITY DEFINER ${sp} AS $$
DECLARE
  n integer;
BEGIN
  UPDATE funding_attempts SET state = 'recorded', updated_at = clock_timestamp()
    WHERE attempt_id = p_attempt AND state = 'live' AND claimed_by = session_user;
  GET DIAGNOSTICS n = ROW_COUNT;
  RETURN n;
END $$;

REVOKE ALL ON FUNCTION funding_claim(uuid, text[], text), funding_release(uuid), funding_recorded(uuid) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION funding_claim(uuid, text[], text), funding_release(uuid), funding_recorded(uuid)
  TO ${ANALYST_GROUP};
`
}
