/**
 * Team ledger migration 10: a payment made as a run's row goes to that row's Pix key. Migration 3 held such a
 * payment to the row's amount only, so an analyst with plain SQL could record an approved row's amount as paid to
 * another key, and it looked approved.
 *
 * The row's draft keeps the key as typed in the spreadsheet; the payment keeps the canonical key the app derived
 * from it (shared/pix-key.ts `parsePixKey`). `run_pix_key_matches(canonical, typed)` accepts the canonical key only
 * when it is what that parser makes of the typed text: the rule is picked by the canonical key's own shape, never a
 * union of rules (a union would let "a.b-c@x.com" stand for "abc@xcom"). It mirrors the parser's steps: JavaScript's
 * trim (its whitespace set, spelled out so no server locale changes it), ASCII-only case folding, and the
 * separators the phone and tax-id rules drop. A typed key the parser would refuse matches nothing.
 */

/** JavaScript's `\s` (what String#trim and the phone/tax-id separators use), as a PostgreSQL bracket body. */
export const JS_SPACE = String.raw`\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff`
const LOWER = 'abcdefghijklmnopqrstuvwxyz'
const UPPER = LOWER.toUpperCase()

export function runKeyMigrationSql(names: { SCHEMA: string; ANALYST_GROUP: string }): string {
  const { SCHEMA, ANALYST_GROUP } = names
  return `
CREATE FUNCTION run_pix_key_matches(canonical text, typed text) RETURNS boolean LANGUAGE sql IMMUTABLE
SET search_path = ${SCHEMA}, pg_temp AS $$
  SELECT coalesce(CASE
    WHEN canonical = '' THEN false
    WHEN position('@' IN canonical) > 0 THEN canonical = translate(s, '${UPPER}', '${LOWER}')
    WHEN left(canonical, 1) = '+' THEN canonical = regexp_replace(s, '[${JS_SPACE}().-]', '', 'g')
    WHEN canonical ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
      THEN canonical = translate(s, '${UPPER}', '${LOWER}')
    ELSE canonical = translate(regexp_replace(s, '[./${JS_SPACE}-]', '', 'g'), '${LOWER}', '${UPPER}')
  END, false)
  FROM (SELECT regexp_replace(typed, '^[${JS_SPACE}]+|[${JS_SPACE}]+$', '', 'g') AS s) t
$$;

CREATE FUNCTION withdrawals_run_key() RETURNS trigger LANGUAGE plpgsql SET search_path = ${SCHEMA}, pg_temp AS $$
DECLARE
  rr run_rows;
BEGIN
  IF NEW.imported_from IS NOT NULL THEN
    RETURN NEW;
  END IF;
  SELECT * INTO rr FROM run_rows WHERE local_id = NEW.local_id;
  IF FOUND AND (NOT run_pix_key_matches(NEW.pix_key, rr.draft ->> 'pixKey')
                OR NEW.request ->> 'pixKey' IS DISTINCT FROM NEW.pix_key) THEN
    RAISE EXCEPTION 'payment % is not to the Pix key of row % of run %', NEW.local_id, rr.idx, rr.run_id
      USING ERRCODE = 'DPX02';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER withdrawals_run_key BEFORE INSERT ON withdrawals FOR EACH ROW EXECUTE FUNCTION withdrawals_run_key();

REVOKE EXECUTE ON FUNCTION withdrawals_run_key(), run_pix_key_matches(text, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION run_pix_key_matches(text, text) TO ${ANALYST_GROUP};
`
}
