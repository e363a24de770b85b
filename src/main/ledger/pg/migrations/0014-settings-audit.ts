/**
 * Team ledger migration 14 (issue #31): changes to the team's settings leave a trace in the audit chain — who
 * (`session_user`, set by `append_audit`), when (the database's clock) and before → after.
 *
 * - The approval threshold and the rate allowance are audited by triggers on the columns themselves, so every way
 *   of changing them is recorded: the owner's tool (`team-ledger threshold | rate`, through the functions below),
 *   or a DBA's plain `UPDATE`. Only disabling the trigger (owner or superuser) escapes it, as with every guard.
 * - `set_approval_threshold` and `set_rate_allowance` (SECURITY DEFINER) validate and change one value, and say
 *   whether anything changed, so the tool can report "no change" on a second run. EXECUTE is the owner's only:
 *   analysts never had UPDATE on these tables and get no function that has it.
 * - Analysts are PostgreSQL roles, which no trigger sees. `record_analyst_change` is called by the tool in the
 *   same transaction as its CREATE ROLE / GRANT / REVOKE / ALTER ROLE, with the state it read before; the
 *   function reads the state after from the catalog and appends an entry only when the two differ.
 *
 * Values go into the entry's details as JSON strings (cents, allowances per minute): the chain's verifier
 * re-serialises details canonically, and a string is written the same way by PostgreSQL and by JavaScript
 * whatever its size, where a float8 or a bigint beyond 2^53 is not.
 */
import { DEFAULT_RATE_LIMITS } from '../../../../shared/api-limits'

/** The audit actions this migration writes (read back by settings-changes.ts). */
export const SETTINGS_AUDIT_ACTIONS = [
  'team.threshold_changed',
  'team.rate_changed',
  'team.analyst_changed',
] as const

export function settingsAuditMigrationSql(names: { SCHEMA: string; ANALYST_GROUP: string }): string {
  const { SCHEMA, ANALYST_GROUP } = names
  // The contract's limits when this migration was written, as numbers: an applied migration's SQL must not
  // change when the constant does.
  const limits = Object.entries(DEFAULT_RATE_LIMITS)
    .map(([e, n]) => `('${e}', ${n})`)
    .join(', ')
  const j = (expr: string): string => `coalesce(to_json((${expr})::text)::text, 'null')`
  const actions = SETTINGS_AUDIT_ACTIONS.map((a) => `'${a}'`).join(', ')
  return `
CREATE INDEX audit_settings_changes ON audit_log (seq) WHERE action IN (${actions});

CREATE FUNCTION team_settings_audit() RETURNS trigger LANGUAGE plpgsql SET search_path = ${SCHEMA}, pg_temp AS $$
BEGIN
  PERFORM append_audit('team.threshold_changed', 'team_settings',
    '{"after":' || ${j('NEW.approval_above_cents')} || ',"before":' || ${j('OLD.approval_above_cents')} || '}', NULL);
  RETURN NULL;
END $$;
CREATE TRIGGER team_settings_audit AFTER UPDATE OF approval_above_cents ON team_settings FOR EACH ROW
  WHEN (OLD.approval_above_cents IS DISTINCT FROM NEW.approval_above_cents) EXECUTE FUNCTION team_settings_audit();

CREATE FUNCTION rate_buckets_audit() RETURNS trigger LANGUAGE plpgsql SET search_path = ${SCHEMA}, pg_temp AS $$
BEGIN
  PERFORM append_audit('team.rate_changed', NEW.endpoint,
    '{"after":' || ${j('NEW.per_minute')} || ',"before":' || ${j('OLD.per_minute')}
      || ',"endpoint":' || ${j('NEW.endpoint')} || '}', NULL);
  RETURN NULL;
END $$;
CREATE TRIGGER rate_buckets_audit AFTER UPDATE OF per_minute ON rate_buckets FOR EACH ROW
  WHEN (OLD.per_minute IS DISTINCT FROM NEW.per_minute) EXECUTE FUNCTION rate_buckets_audit();

CREATE FUNCTION set_approval_threshold(p_cents bigint) RETURNS boolean
LANGUAGE plpgsql SECURITY DEFINER SET search_path = ${SCHEMA}, pg_temp AS $$
DECLARE
  old bigint;
BEGIN
  IF p_cents < 0 THEN
    RAISE EXCEPTION 'the approval threshold is whole cents >= 0, or NULL (off)' USING ERRCODE = '22023';
  END IF;
  SELECT approval_above_cents INTO old FROM team_settings WHERE id = 1 FOR UPDATE;
  IF old IS NOT DISTINCT FROM p_cents THEN
    RETURN false;
  END IF;
  UPDATE team_settings SET approval_above_cents = p_cents, updated_by = session_user WHERE id = 1;
  RETURN true;
END $$;

-- Allowances per minute, from 1 to the contract's limit: more than the service grants would only buy 429s.
CREATE FUNCTION set_rate_allowance(p_endpoint text, p_per_minute integer) RETURNS boolean
LANGUAGE plpgsql SECURITY DEFINER SET search_path = ${SCHEMA}, pg_temp AS $$
DECLARE
  b rate_buckets;
  cap integer;
BEGIN
  SELECT l.n INTO cap FROM (VALUES ${limits}) AS l(e, n) WHERE l.e = p_endpoint;
  SELECT * INTO b FROM rate_buckets WHERE endpoint = p_endpoint FOR UPDATE;
  IF NOT FOUND OR cap IS NULL THEN
    RAISE EXCEPTION 'unknown endpoint %', p_endpoint USING ERRCODE = '22023';
  END IF;
  IF p_per_minute IS NULL OR p_per_minute < 1 OR p_per_minute > cap THEN
    RAISE EXCEPTION 'the allowance for % is 1 to % a minute', p_endpoint, cap USING ERRCODE = '22023';
  END IF;
  IF b.per_minute = p_per_minute THEN
    RETURN false;
  END IF;
  UPDATE rate_buckets SET per_minute = p_per_minute, tokens = least(tokens, p_per_minute)
  WHERE endpoint = p_endpoint;
  RETURN true;
END $$;

-- absent | active (may log in, in the group) | no_login (in the group, cannot log in) | outside (not in the group)
CREATE FUNCTION analyst_state(p_role text) RETURNS text LANGUAGE sql STABLE SET search_path = ${SCHEMA}, pg_temp AS $$
  SELECT coalesce((
    SELECT CASE
      WHEN NOT pg_has_role(r.oid, '${ANALYST_GROUP}', 'MEMBER') THEN 'outside'
      WHEN r.rolcanlogin THEN 'active'
      ELSE 'no_login' END
    FROM pg_roles r WHERE r.rolname = p_role), 'absent')
$$;

CREATE FUNCTION record_analyst_change(p_role text, p_before text) RETURNS boolean
LANGUAGE plpgsql SECURITY DEFINER SET search_path = ${SCHEMA}, pg_temp AS $$
DECLARE
  after text := analyst_state(p_role);
BEGIN
  IF p_before NOT IN ('absent', 'active', 'no_login', 'outside') THEN
    RAISE EXCEPTION 'unknown analyst state %', p_before USING ERRCODE = '22023';
  END IF;
  IF after = p_before THEN
    RETURN false;
  END IF;
  PERFORM append_audit('team.analyst_changed', p_role,
    '{"after":' || ${j('after')} || ',"before":' || ${j('p_before')} || ',"role":' || ${j('p_role')} || '}', NULL);
  RETURN true;
END $$;

REVOKE ALL ON FUNCTION team_settings_audit(), rate_buckets_audit(), set_approval_threshold(bigint),
  set_rate_allowance(text, integer), analyst_state(text), record_analyst_change(text, text) FROM PUBLIC;
`
}
