/**
 * Team ledger migration: deposits (top-ups, "Comprar DePix"), the ledger's second record kind, on PostgreSQL
 * (issue #16). The same columns as the SQLite ledger's `deposits` (migration v8 there) plus who wrote the row
 * (`db_user`, from `session_user` by trigger) and where an imported row came from. The same guarantees as
 * withdrawals (migration 1): never deleted, observations append-only, identity from the database, a NOTIFY on
 * every change (its own channel, `depix_deposits`, so a desk never reads a deposit id as a withdrawal's).
 * A team ledger is one account's: a deposit id is unique across the team.
 */

/** A function of the schema and group names: schema.ts imports this file, so it cannot import them back. */
export const depositsMigrationSql = (SCHEMA: string, ANALYST_GROUP: string): string => `
CREATE TABLE deposits (
  id bigserial PRIMARY KEY,
  local_id text NOT NULL UNIQUE,
  profile text NOT NULL,
  operator text NOT NULL,
  db_user text NOT NULL,
  created_at text NOT NULL,
  updated_at text NOT NULL,
  local_state text NOT NULL
    CHECK (local_state IN ('submitting', 'created', 'rejected', 'outcome_unknown', 'not_created')),
  origin text NOT NULL CHECK (origin IN ('app', 'imported')),
  -- json, not jsonb: the body as sent, member order included (what support is shown).
  request json NOT NULL,
  amount_cents bigint NOT NULL,
  depix_address text,
  create_response jsonb,
  remote_id text UNIQUE,
  remote_status text,
  remote_status_at text,
  remote_checked_at text,
  last_remote jsonb,
  qr_copy_paste text,
  expiration text,
  value_cents bigint,
  bank_tx_id text,
  blockchain_tx_id text,
  payer_name text,
  reversed_at text,
  error jsonb,
  request_id text,
  flags jsonb NOT NULL DEFAULT '[]',
  display_status text NOT NULL,
  is_open boolean NOT NULL,
  search_text text NOT NULL,
  imported_from text,
  CHECK (local_state <> 'created' OR remote_id IS NOT NULL)
);
CREATE INDEX deposits_list_p ON deposits (profile, created_at, id);
CREATE INDEX deposits_list_c ON deposits (created_at, id) INCLUDE (display_status, profile);
CREATE INDEX deposits_by_state ON deposits (local_state, db_user);
CREATE INDEX deposits_similar ON deposits (depix_address, amount_cents, created_at);
CREATE INDEX deposits_open ON deposits (created_at) WHERE is_open;
CREATE INDEX deposits_search ON deposits USING gin (search_text gin_trgm_ops);

CREATE FUNCTION deposits_guard() RETURNS trigger LANGUAGE plpgsql SET search_path = ${SCHEMA}, pg_temp AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    NEW.db_user := OLD.db_user;
    NEW.created_at := OLD.created_at;
    NEW.imported_from := OLD.imported_from;
    RETURN NEW;
  END IF;
  NEW.db_user := session_user;
  IF NEW.imported_from IS NOT NULL AND NEW.local_state = 'submitting' THEN
    RAISE EXCEPTION 'deposit % is still being submitted on its desk', NEW.local_id USING ERRCODE = '22023';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER deposits_guard BEFORE INSERT OR UPDATE ON deposits FOR EACH ROW EXECUTE FUNCTION deposits_guard();
CREATE TRIGGER deposits_no_delete BEFORE DELETE ON deposits FOR EACH ROW EXECUTE FUNCTION forbid_change();

-- Live status for every desk: LISTEN depix_deposits.
CREATE FUNCTION deposits_notify() RETURNS trigger LANGUAGE plpgsql SET search_path = ${SCHEMA}, pg_temp AS $$
BEGIN
  IF TG_OP = 'INSERT' OR NEW.updated_at IS DISTINCT FROM OLD.updated_at
     OR NEW.display_status IS DISTINCT FROM OLD.display_status THEN
    PERFORM pg_notify('depix_deposits', json_build_object('localId', NEW.local_id,
      'displayStatus', NEW.display_status, 'updatedAt', NEW.updated_at)::text);
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER deposits_notify AFTER INSERT OR UPDATE ON deposits FOR EACH ROW EXECUTE FUNCTION deposits_notify();

CREATE TABLE deposit_observations (
  id bigserial PRIMARY KEY,
  local_id text NOT NULL REFERENCES deposits (local_id),
  observed_at text NOT NULL,
  remote_status text NOT NULL,
  body jsonb,
  request_id text,
  nonce text,
  applied boolean NOT NULL,
  db_user text NOT NULL
);
CREATE INDEX deposit_observations_by_record ON deposit_observations (local_id, id);
CREATE FUNCTION deposit_observations_identity() RETURNS trigger LANGUAGE plpgsql
SET search_path = ${SCHEMA}, pg_temp AS $$
BEGIN
  NEW.db_user := session_user;
  RETURN NEW;
END $$;
CREATE TRIGGER deposit_observations_identity BEFORE INSERT ON deposit_observations
  FOR EACH ROW EXECUTE FUNCTION deposit_observations_identity();
CREATE TRIGGER deposit_observations_append_only BEFORE UPDATE OR DELETE ON deposit_observations
  FOR EACH ROW EXECUTE FUNCTION forbid_change();

REVOKE ALL ON deposits, deposit_observations FROM PUBLIC;
REVOKE EXECUTE ON FUNCTION deposits_guard(), deposits_notify(), deposit_observations_identity() FROM PUBLIC;
GRANT SELECT, INSERT, UPDATE ON deposits TO ${ANALYST_GROUP};
GRANT SELECT, INSERT ON deposit_observations TO ${ANALYST_GROUP};
GRANT USAGE ON SEQUENCE deposits_id_seq, deposit_observations_id_seq TO ${ANALYST_GROUP};
`
