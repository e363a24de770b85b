/**
 * Team ledger migration: `take_rate_token` reads the clock after it holds the bucket's row lock. Migration 1 read
 * it before (in DECLARE): a desk that waited for the lock while another desk took a token then found the bucket's
 * `at` later than its own "now" and was told to wait although tokens were free, so of two desks creating at the
 * same moment one could be refused as rate-limited for nothing. Same signature, owner and privileges.
 */
export const rateTokenMigrationSql = (SCHEMA: string): string => `
CREATE OR REPLACE FUNCTION take_rate_token(p_endpoint text) RETURNS double precision
LANGUAGE plpgsql SECURITY DEFINER SET search_path = ${SCHEMA}, pg_temp AS $$
DECLARE
  b rate_buckets;
  t timestamptz;
  cap double precision;
  lvl double precision;
BEGIN
  SELECT * INTO b FROM rate_buckets WHERE endpoint = p_endpoint FOR UPDATE;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'unknown endpoint %', p_endpoint USING ERRCODE = '22023';
  END IF;
  -- Now, with the lock held: whoever held it before us wrote an "at" that is not after this.
  t := clock_timestamp();
  cap := greatest(1, b.per_minute - ceil(b.per_minute * 0.05));
  lvl := least(cap, b.tokens + extract(epoch FROM (t - b.at)) * b.per_minute / 60.0);
  IF t >= b.at AND lvl >= 1 - 1e-9 THEN
    UPDATE rate_buckets SET tokens = lvl - 1, at = t WHERE endpoint = p_endpoint;
    RETURN 0;
  END IF;
  RETURN greatest(1, ceil((1 - lvl) * 60000.0 / b.per_minute));
END $$;
`
