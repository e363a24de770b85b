/**
 * Part of team ledger migration 11 (migration-state-machine.ts): the state moves of payment runs and their rows as
 * tables (one line per move), approvals asked for and decided only through functions, and the team's registered
 * treasury addresses (owner-written, audited).
 */

/**
 * A run row's state moves (from, to), one line each: what ledger/sqlite/runs.ts and runs/executor.ts do. Staying in a state
 * is always allowed; `dropped` and `submitted` lead nowhere. A new move (a retry of a held row, say) is one line here
 * in a later migration (INSERT INTO run_row_moves).
 */
const RUN_ROW_MOVES: readonly (readonly [string, string])[] = [
  ['pending', 'queued'],
  ['pending', 'dropped'],
  ['queued', 'in_flight'],
  ['queued', 'held'],
  ['queued', 'dropped'],
  ['in_flight', 'submitted'],
  ['in_flight', 'queued'],
  ['in_flight', 'held'],
  ['held', 'dropped'],
]

/**
 * A run's state moves (from, to), one line each: what runs/service.ts and pg/run-store.ts do (approve, void an
 * approval back to draft, start/create/pause/resume waves, fund a wave, cancel). `completed` and `cancelled` lead
 * nowhere. A new move (a takeover, a "partially paid" end) is one line here, or one INSERT in a later migration.
 */
const RUN_MOVES: readonly (readonly [string, string])[] = [
  ['draft', 'approved'],
  ['draft', 'cancelled'],
  ['approved', 'draft'],
  ['approved', 'creating'],
  ['approved', 'cancelled'],
  ['creating', 'awaiting_funding'],
  ['creating', 'paused'],
  ['creating', 'cancelled'],
  ['awaiting_funding', 'creating'],
  ['awaiting_funding', 'approved'],
  ['awaiting_funding', 'completed'],
  ['awaiting_funding', 'cancelled'],
  ['paused', 'creating'],
  ['paused', 'awaiting_funding'],
  ['paused', 'approved'],
  ['paused', 'cancelled'],
]

export function teamRulesSql(names: { sp: string; ISO_NOW: string; ANALYST_GROUP: string }): string {
  const { sp, ISO_NOW, ANALYST_GROUP } = names
  return `
-- Runs (attack 1 of issue #24): a run row's state moves only as ledger.run_row_moves lists (the app's moves,
-- ledger/runs.ts and runs/executor.ts), so a dropped row is final; and a row the analyst decided to drop is never
-- sent, so run_needs_approval (which leaves those rows out) is computed over every row that can still be sent.
CREATE TABLE run_row_moves (from_state text NOT NULL, to_state text NOT NULL, PRIMARY KEY (from_state, to_state));
INSERT INTO run_row_moves VALUES
  ${RUN_ROW_MOVES.map(([f, t]) => `('${f}', '${t}')`).join(',\n  ')};

CREATE TABLE run_moves (from_state text NOT NULL, to_state text NOT NULL, PRIMARY KEY (from_state, to_state));
INSERT INTO run_moves VALUES
  ${RUN_MOVES.map(([f, t]) => `('${f}', '${t}')`).join(',\n  ')};

CREATE FUNCTION runs_state_moves() RETURNS trigger LANGUAGE plpgsql ${sp} AS $$
BEGIN
  IF NEW.state <> OLD.state
     AND NOT EXISTS (SELECT 1 FROM run_moves WHERE from_state = OLD.state AND to_state = NEW.state) THEN
    RAISE EXCEPTION 'run %: % -> % is not a move of a run', OLD.run_id, OLD.state, NEW.state USING ERRCODE = 'DPX11';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER runs_state_moves BEFORE UPDATE ON runs FOR EACH ROW EXECUTE FUNCTION runs_state_moves();

CREATE FUNCTION run_rows_final() RETURNS trigger LANGUAGE plpgsql ${sp} AS $$
BEGIN
  IF NEW.state <> OLD.state
     AND NOT EXISTS (SELECT 1 FROM run_row_moves WHERE from_state = OLD.state AND to_state = NEW.state) THEN
    RAISE EXCEPTION 'row % of run %: % -> % is not a move of a run row', OLD.idx, OLD.run_id, OLD.state, NEW.state
      USING ERRCODE = 'DPX11';
  END IF;
  IF NEW.decision = 'drop' AND NEW.state IN ('queued', 'in_flight', 'submitted') THEN
    RAISE EXCEPTION 'row % of run % is decided "drop": it is never sent', OLD.idx, OLD.run_id USING ERRCODE = 'DPX11';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER run_rows_final BEFORE UPDATE ON run_rows FOR EACH ROW EXECUTE FUNCTION run_rows_final();

/*
 * Approvals: asked for and decided only through these two functions (the approvals triggers of migration 1 still
 * decide who and what: requester from session_user, pending on arrival, another role decides, once).
 */
CREATE FUNCTION request_approval(p_local_id text, p_profile text, p_request jsonb, p_pix_key text,
  p_amount_kind text, p_amount_cents bigint, p_note text, p_refs jsonb, p_expected_payee jsonb) RETURNS approvals
LANGUAGE plpgsql SECURITY DEFINER ${sp} AS $$
DECLARE
  r approvals;
BEGIN
  INSERT INTO approvals (local_id, profile, request, pix_key, amount_kind, amount_cents, note, refs, expected_payee)
    VALUES (p_local_id, p_profile, p_request, p_pix_key, p_amount_kind, p_amount_cents, p_note, p_refs,
      p_expected_payee)
    RETURNING * INTO r;
  RETURN r;
END $$;

-- NULL when there is no such approval.
CREATE FUNCTION decide_approval(p_id uuid, p_state text, p_note text) RETURNS approvals
LANGUAGE plpgsql SECURITY DEFINER ${sp} AS $$
DECLARE
  r approvals;
BEGIN
  UPDATE approvals SET state = p_state, decision_note = p_note WHERE id = p_id RETURNING * INTO r;
  RETURN r;
END $$;
REVOKE INSERT, UPDATE ON approvals FROM ${ANALYST_GROUP};
REVOKE EXECUTE ON FUNCTION request_approval(text, text, jsonb, text, text, bigint, text, jsonb, jsonb),
  decide_approval(uuid, text, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION request_approval(text, text, jsonb, text, text, bigint, text, jsonb, jsonb),
  decide_approval(uuid, text, text) TO ${ANALYST_GROUP};

/*
 * The team's registered treasury addresses (issue #24): where refunds and top-up deliveries are expected to go.
 * Written by the owner role only; every desk reads it, and the approval card marks a refund address that is not
 * in it.
 */
CREATE FUNCTION treasury_address_identity() RETURNS trigger LANGUAGE plpgsql ${sp} AS $$
BEGIN
  NEW.added_by := session_user;
  NEW.added_at := ${ISO_NOW};
  RETURN NEW;
END $$;
CREATE TABLE treasury_addresses (
  address text PRIMARY KEY CHECK (address <> '' AND address = btrim(address)),
  label text,
  added_by text NOT NULL DEFAULT session_user,
  added_at text NOT NULL DEFAULT ${ISO_NOW}
);
CREATE TRIGGER treasury_addresses_identity BEFORE INSERT ON treasury_addresses
  FOR EACH ROW EXECUTE FUNCTION treasury_address_identity();
CREATE TRIGGER treasury_addresses_no_truncate BEFORE TRUNCATE ON treasury_addresses
  FOR EACH STATEMENT EXECUTE FUNCTION forbid_truncate();
CREATE FUNCTION treasury_address_audit() RETURNS trigger LANGUAGE plpgsql ${sp} AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM audit_write('treasury.address_removed', OLD.address, '{}', NULL);
    RETURN OLD;
  END IF;
  PERFORM audit_write('treasury.address_added', NEW.address,
    '{"label":' || coalesce(to_json(NEW.label)::text, 'null') || '}', NULL);
  RETURN NEW;
END $$;
CREATE TRIGGER treasury_addresses_audit AFTER INSERT OR DELETE ON treasury_addresses
  FOR EACH ROW EXECUTE FUNCTION treasury_address_audit();
REVOKE ALL ON treasury_addresses FROM PUBLIC;
GRANT SELECT ON treasury_addresses TO ${ANALYST_GROUP};
`
}
