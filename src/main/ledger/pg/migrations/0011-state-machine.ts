/**
 * Team ledger migration 11 (issue #24): the database is the state machine for payments and top-ups.
 *
 * Before it, an analyst role could UPDATE any column of a record and then call `append_audit` with the state hash of
 * the row she had written: the chain checked, and a colleague's deposit address, a top-up's Pix QR or a recorded
 * refund could be rewritten. Now:
 * - analysts have no INSERT/UPDATE on `withdrawals`, `deposits`, `observations`, `deposit_observations`; every
 *   change goes through `write_withdrawal` / `write_deposit` / `add_observation` (SECURITY DEFINER);
 * - those functions lock the row, refuse a move not in the table (`record_move_refusal`), write the row, compute the
 *   audited state hash themselves from the row as stored (`withdrawal_state` / `deposit_state` + `canonical_json`:
 *   ledger/model/state-hash.ts in SQL) and append the audit entry (`audit_write`, the body `append_audit` had);
 * - approvals are asked for and decided only through `request_approval` / `decide_approval`;
 * - `append_audit` stays for entries that change no record (notes, flags, exports, runs, payees), and refuses an
 *   analyst a `withdrawal.*` / `deposit.*` action (other than `.flagged`) or a state hash naming a record.
 *
 * Refusals carry SQLSTATE DPX10…DPX15 (mapped by ledger/team-errors.ts to one message the operator reads).
 * The owner role keeps its privileges (imports, repairs): see docs/TEAM-LEDGER.md "What the database guarantees".
 */
import { JS_SPACE } from './0010-run-key'
import { stateHashSql } from './state-hash'
import { teamRulesSql } from './team-rules'

// The record columns a desk writes, spelled out: an applied migration's SQL never changes with the app's lists.
const W_COLS = `local_id, profile, operator, created_at, updated_at, local_state, request, pix_key, amount_kind,
  amount_cents, create_response, remote_id, remote_status, remote_status_at, remote_checked_at, last_remote,
  deposit_address, deposit_amount_cents, payout_amount_cents, expiration, funded_at, funding_tx_id, refund,
  receiver_name, error, request_id, flags, refs, expected_payee, remote_status_norm, display_status, has_refund,
  is_open, search_text`
export const D_COLS = `local_id, profile, operator, created_at, updated_at, local_state, origin, request, amount_cents,
  depix_address, create_response, remote_id, remote_status, remote_status_at, remote_checked_at, last_remote,
  qr_copy_paste, expiration, value_cents, bank_tx_id, blockchain_tx_id, payer_name, reversed_at, error, request_id,
  flags, display_status, is_open, search_text`

export const prefixed = (cols: string, p: string): string =>
  cols
    .split(',')
    .map((c) => `${p}.${c.trim()}`)
    .join(', ')

/*
 * The move table, one line per rule (kind, rule, column or move). Adding a transition is adding a line here:
 * - frozen: never changes once the row exists;
 * - set_once: may go from NULL to a value, then never changes;
 * - kept: once set never goes back to NULL (a recorded refund, payout, status);
 * - local: an allowed local-state move (from>to); staying in the same state is always allowed.
 */
const MOVES: readonly (readonly [string, string, string])[] = [
  ...[
    'profile',
    'operator',
    'created_at',
    'request',
    'pix_key',
    'amount_kind',
    'amount_cents',
    'refs',
    'expected_payee',
  ].map((c) => ['withdrawal', 'frozen', c] as const),
  ...['remote_id', 'deposit_address', 'deposit_amount_cents', 'payout_amount_cents'].map(
    (c) => ['withdrawal', 'set_once', c] as const,
  ),
  ...['refund', 'funded_at', 'remote_status', 'create_response'].map(
    (c) => ['withdrawal', 'kept', c] as const,
  ),
  ...['profile', 'operator', 'created_at', 'origin', 'request', 'amount_cents', 'depix_address'].map(
    (c) => ['deposit', 'frozen', c] as const,
  ),
  ...['remote_id', 'qr_copy_paste'].map((c) => ['deposit', 'set_once', c] as const),
  ...['blockchain_tx_id', 'bank_tx_id', 'reversed_at', 'remote_status', 'create_response'].map(
    (c) => ['deposit', 'kept', c] as const,
  ),
  ...['withdrawal', 'deposit'].flatMap((k) =>
    [
      'submitting>created',
      'submitting>rejected',
      'submitting>outcome_unknown',
      'outcome_unknown>created',
      'outcome_unknown>not_created',
    ].map((m) => [k, 'local', m] as const),
  ),
]

const WITHDRAWAL_RANKS = { unsent: 0, sending: 1, error: 2, sent: 3, expired: 3, cancelled: 3, refunded: 4 }
const DEPOSIT_RANKS = { pending: 0, delayed: 1, approved: 2, depix_sent: 3, expired: 3, refunded: 4 }
const rankRows = (kind: string, ranks: Record<string, number>): string[] =>
  Object.entries(ranks).map(([s, r]) => `('${kind}', '${s}', ${r})`)

export function stateMachineMigrationSql(names: {
  SCHEMA: string
  ANALYST_GROUP: string
  ISO_NOW_SQL: string
}): string {
  const { SCHEMA, ANALYST_GROUP, ISO_NOW_SQL: ISO_NOW } = names
  const sp = `SET search_path = ${SCHEMA}, pg_temp`
  const owner = `(SELECT pg_get_userbyid(nspowner) FROM pg_namespace WHERE nspname = '${SCHEMA}')`
  return `
${stateHashSql(sp)}
-- shared/status-order.ts: the kinds' vocabularies and the one decision (forward only).
CREATE TABLE status_ranks (kind text NOT NULL, status text NOT NULL, rank numeric NOT NULL,
  PRIMARY KEY (kind, status));
INSERT INTO status_ranks VALUES
  ${[...rankRows('withdrawal', WITHDRAWAL_RANKS), ...rankRows('deposit', DEPOSIT_RANKS)].join(',\n  ')};

CREATE FUNCTION status_norm(raw text) RETURNS text LANGUAGE sql IMMUTABLE ${sp} AS $$
  SELECT CASE WHEN s = 'canceled' THEN 'cancelled' ELSE s END
  FROM (SELECT regexp_replace(lower(regexp_replace(raw, '^[${JS_SPACE}]+|[${JS_SPACE}]+$', '', 'g')),
    '[${JS_SPACE}_-]+', '_', 'g') AS s) t
$$;

CREATE FUNCTION status_terminal(kind text, s text, has_refund boolean) RETURNS boolean LANGUAGE sql IMMUTABLE
${sp} AS $$
  SELECT CASE kind WHEN 'withdrawal' THEN s IN ('sent', 'refunded', 'expired', 'cancelled') OR (s = 'error' AND has_refund)
    ELSE s IN ('expired', 'refunded') END
$$;

-- decideByVocabulary's "replace", where the database cannot know which observation came later: allowed unless
-- it moves backwards (a terminal status left for a non-terminal one, a lower known rank, or another terminal
-- status of equal rank that is not a normal end).
CREATE FUNCTION status_move_ok(kind text, cur_raw text, cur_refund boolean, nxt_raw text, nxt_refund boolean)
RETURNS boolean LANGUAGE plpgsql STABLE ${sp} AS $$
DECLARE
  cur text := status_norm(cur_raw);
  nxt text := status_norm(nxt_raw);
  rc numeric;
  rn numeric;
  ct boolean;
  nt boolean;
BEGIN
  IF cur_raw IS NULL OR cur = nxt THEN
    RETURN true;
  END IF;
  ct := status_terminal(kind, cur, cur_refund);
  nt := status_terminal(kind, nxt, cur_refund OR nxt_refund);
  IF ct AND NOT nt THEN
    RETURN false;
  END IF;
  SELECT rank INTO rc FROM status_ranks WHERE status_ranks.kind = status_move_ok.kind AND status = cur;
  SELECT rank INTO rn FROM status_ranks WHERE status_ranks.kind = status_move_ok.kind AND status = nxt;
  IF rc IS NULL OR rn IS NULL THEN
    RETURN true;
  END IF;
  RETURN rn > rc OR (rn = rc AND NOT (ct AND nt));
END $$;

CREATE TABLE record_moves (kind text NOT NULL, rule text NOT NULL CHECK (rule IN ('frozen', 'set_once', 'kept', 'local')),
  item text NOT NULL, PRIMARY KEY (kind, rule, item));
INSERT INTO record_moves VALUES
  ${MOVES.map(([k, r, i]) => `('${k}', '${r}', '${i}')`).join(',\n  ')};

-- Whether this role may turn another role's submission into outcome_unknown: nobody, until migration 13 gives runs a
-- lease (a desk that took over a run resolves its in-flight rows by the service's answer).
CREATE FUNCTION takes_over_submission(p_local_id text) RETURNS boolean LANGUAGE sql STABLE ${sp} AS $$
  SELECT false
$$;

-- Why o -> n is not an allowed move (SQLSTATE, message), or NULL when it is.
CREATE FUNCTION record_move_refusal(kind text, o jsonb, n jsonb, o_refund boolean, n_refund boolean,
  OUT code text, OUT msg text) LANGUAGE plpgsql STABLE ${sp} AS $$
DECLARE
  m record_moves;
BEGIN
  FOR m IN SELECT * FROM record_moves WHERE record_moves.kind = record_move_refusal.kind AND rule <> 'local' LOOP
    IF m.rule = 'frozen' AND (o -> m.item) IS DISTINCT FROM (n -> m.item) THEN
      code := 'DPX10'; msg := m.item || ' never changes'; RETURN;
    END IF;
    IF m.rule = 'set_once' AND json_or_null(o -> m.item) IS NOT NULL AND (o -> m.item) IS DISTINCT FROM (n -> m.item) THEN
      code := 'DPX10'; msg := m.item || ' is frozen once set'; RETURN;
    END IF;
    IF m.rule = 'kept' AND json_or_null(o -> m.item) IS NOT NULL AND json_or_null(n -> m.item) IS NULL THEN
      code := 'DPX13'; msg := m.item || ' is recorded and never removed'; RETURN;
    END IF;
  END LOOP;
  IF o ->> 'local_state' <> n ->> 'local_state' AND NOT EXISTS (SELECT 1 FROM record_moves
      WHERE record_moves.kind = record_move_refusal.kind AND rule = 'local'
        AND item = (o ->> 'local_state') || '>' || (n ->> 'local_state')) THEN
    code := 'DPX11'; msg := 'local state ' || (o ->> 'local_state') || ' -> ' || (n ->> 'local_state') || ' is not allowed';
    RETURN;
  END IF;
  -- Who: only the role whose desk sent the POST knows its answer, so only it moves a record out of submitting —
  -- except to outcome_unknown ("ask the service") by the desk that took over the record's run (migration 13).
  IF o ->> 'local_state' = 'submitting' AND n ->> 'local_state' <> 'submitting' AND session_user <> o ->> 'db_user'
     AND NOT (n ->> 'local_state' = 'outcome_unknown' AND takes_over_submission(o ->> 'local_id')) THEN
    code := 'DPX15'; msg := 'only the desk that sent it (' || (o ->> 'db_user') || ') settles a submission';
    RETURN;
  END IF;
  -- The service's answers (status, body, refund) belong to a created record only; a create's own answer arrives
  -- with the move to created.
  IF n ->> 'local_state' <> 'created' AND ((o -> 'remote_status') IS DISTINCT FROM (n -> 'remote_status')
      OR (o -> 'last_remote') IS DISTINCT FROM (n -> 'last_remote')
      OR (o -> 'refund') IS DISTINCT FROM (n -> 'refund')) THEN
    code := 'DPX11'; msg := 'only a created record takes the service''s answers';
    RETURN;
  END IF;
  IF NOT status_move_ok(kind, o ->> 'remote_status', o_refund, n ->> 'remote_status', n_refund) THEN
    code := 'DPX12'; msg := 'remote status ' || (o ->> 'remote_status') || ' -> ' || (n ->> 'remote_status')
      || ' moves backwards';
    RETURN;
  END IF;
END $$;

-- The chain's one writer (migration 1's append_audit body), for the functions of this migration only.
ALTER FUNCTION append_audit(text, text, text, text) RENAME TO audit_write;
REVOKE EXECUTE ON FUNCTION audit_write(text, text, text, text) FROM ${ANALYST_GROUP};

-- What the desks may still append themselves: entries that change no record.
CREATE FUNCTION append_audit(p_action text, p_subject text, p_details text, p_state_hash text)
RETURNS audit_log LANGUAGE plpgsql SECURITY DEFINER ${sp} AS $$
BEGIN
  IF session_user <> ${owner} AND (
       ((p_action LIKE 'withdrawal.%' OR p_action LIKE 'deposit.%') AND p_action NOT LIKE '%.flagged')
       OR (p_state_hash IS NOT NULL AND p_state_hash <> '' AND (
         EXISTS (SELECT 1 FROM withdrawals WHERE local_id = p_subject)
         OR EXISTS (SELECT 1 FROM deposits WHERE local_id = p_subject)))) THEN
    RAISE EXCEPTION 'a record''s audit entries are written by the database with the change itself (%)', p_action
      USING ERRCODE = 'DPX14';
  END IF;
  RETURN audit_write(p_action, p_subject, p_details, p_state_hash);
END $$;

CREATE FUNCTION refuse_move(kind text, local_id text, code text, msg text) RETURNS void LANGUAGE plpgsql ${sp} AS $$
BEGIN
  RAISE EXCEPTION '% %: %', kind, local_id, msg USING ERRCODE = code,
    HINT = 'A transição não é permitida pelo livro-caixa da equipe / the team ledger does not allow this change';
END $$;

/*
 * The one way a withdrawal row is written by a desk. p_row: the row's columns (pg/rows.ts recordRow); p_new: a
 * new row (an existing one is a unique violation, as an INSERT was) or a change of an existing one. A new row
 * starts as submitting (or arrives imported, never submitting: withdrawals_guard); an existing row moves only as
 * record_moves allows. The audit entry's state hash is the database's, from the row as stored; an unchanged state
 * writes no entry, and a change without an action is refused. Returns the state hash.
 */
CREATE FUNCTION write_withdrawal(p_row jsonb, p_new boolean, p_approval uuid, p_action text, p_details text)
RETURNS text
LANGUAGE plpgsql SECURITY DEFINER ${sp} AS $$
DECLARE
  n withdrawals := jsonb_populate_record(NULL::withdrawals, p_row);
  o withdrawals;
  w withdrawals;
  v record;
  before text;
  after text;
BEGIN
  -- What the tracker and the listing go by is derived here, never taken from the desk (ledger/rows.ts derive):
  -- a row sent with is_open = false would drop a live payment from every desk's tracker.
  n.remote_status_norm := status_norm(n.remote_status);
  n.display_status := CASE WHEN n.local_state = 'created' AND n.remote_status IS NOT NULL THEN n.remote_status_norm
    ELSE n.local_state END;
  n.has_refund := json_or_null(n.refund) IS NOT NULL;
  n.is_open := n.local_state = 'created' AND NOT (n.has_refund OR n.remote_status_norm IS NOT DISTINCT FROM 'sent');
  SELECT * INTO o FROM withdrawals WHERE local_id = n.local_id FOR UPDATE;
  IF FOUND AND p_new THEN
    RAISE EXCEPTION 'withdrawal % already exists', n.local_id USING ERRCODE = '23505', CONSTRAINT = 'withdrawals_local_id_key';
  ELSIF NOT FOUND AND NOT p_new THEN
    PERFORM refuse_move('withdrawal', n.local_id, 'DPX11', 'there is no such record to change');
  ELSIF NOT FOUND THEN
    IF n.local_state <> 'submitting' AND n.imported_from IS NULL THEN
      PERFORM refuse_move('withdrawal', n.local_id, 'DPX11', 'a new record starts as submitting');
    END IF;
    -- Once the team registers treasury addresses, a payment whose refund address is not one of them needs another
    -- analyst's approval whatever its amount (a failed payout refunds the whole deposit there). A run's row is
    -- covered by its run's approval; an imported record sends nothing.
    IF n.imported_from IS NULL AND EXISTS (SELECT 1 FROM treasury_addresses)
       AND NOT EXISTS (SELECT 1 FROM treasury_addresses WHERE address = n.request ->> 'refundAddress')
       AND NOT EXISTS (SELECT 1 FROM run_rows WHERE local_id = n.local_id)
       AND NOT EXISTS (SELECT 1 FROM approvals a WHERE a.id = p_approval AND a.state = 'approved'
                         AND a.local_id = n.local_id AND a.profile = n.profile AND a.request = n.request
                         AND a.pix_key = n.pix_key AND a.amount_kind = n.amount_kind
                         AND a.amount_cents = n.amount_cents) THEN
      RAISE EXCEPTION 'payment % refunds to an address the team has not registered: it needs an approval',
        n.local_id USING ERRCODE = 'DPX01';
    END IF;
    INSERT INTO withdrawals (${W_COLS}, approval_id, imported_from)
      VALUES (${prefixed(W_COLS, 'n')}, p_approval, n.imported_from);
  ELSE
    SELECT * INTO v FROM record_move_refusal('withdrawal', to_jsonb(o), to_jsonb(n), o.refund IS NOT NULL,
      n.refund IS NOT NULL);
    IF v.code IS NOT NULL THEN
      PERFORM refuse_move('withdrawal', n.local_id, v.code, v.msg);
    END IF;
    before := state_hash(withdrawal_state(o));
    UPDATE withdrawals SET (${W_COLS}) = (${prefixed(W_COLS, 'n')}) WHERE id = o.id;
  END IF;
  SELECT * INTO w FROM withdrawals WHERE local_id = n.local_id;
  after := state_hash(withdrawal_state(w));
  IF after IS NOT DISTINCT FROM before THEN
    RETURN after;
  END IF;
  IF p_action IS NULL OR p_action NOT LIKE 'withdrawal.%' THEN
    PERFORM refuse_move('withdrawal', n.local_id, 'DPX14', 'a change needs its withdrawal.* audit action');
  END IF;
  PERFORM audit_write(p_action, n.local_id, p_details, after);
  RETURN after;
END $$;

-- The same for top-ups (json, not jsonb: the request body keeps its member order). A new one starts as submitting
-- from the app, arrives from a desk ledger's import (never submitting), or from the service's list (origin
-- imported) with no QR to pay and no delivery address of ours.
CREATE FUNCTION write_deposit(p_row json, p_new boolean, p_imported_from text, p_action text, p_details text)
RETURNS text
LANGUAGE plpgsql SECURITY DEFINER ${sp} AS $$
DECLARE
  n deposits := json_populate_record(NULL::deposits, p_row);
  o deposits;
  d deposits;
  v record;
  before text;
  after text;
BEGIN
  n.display_status := CASE WHEN n.local_state = 'created' AND n.remote_status IS NOT NULL
    THEN status_norm(n.remote_status) ELSE n.local_state END;
  n.is_open := n.local_state = 'created' AND NOT status_terminal('deposit', status_norm(coalesce(n.remote_status, '')), false);
  SELECT * INTO o FROM deposits WHERE local_id = n.local_id FOR UPDATE;
  IF FOUND AND p_new THEN
    RAISE EXCEPTION 'deposit % already exists', n.local_id USING ERRCODE = '23505', CONSTRAINT = 'deposits_local_id_key';
  ELSIF NOT FOUND AND NOT p_new THEN
    PERFORM refuse_move('deposit', n.local_id, 'DPX11', 'there is no such record to change');
  ELSIF NOT FOUND THEN
    IF NOT ((n.origin = 'app' AND n.local_state = 'submitting' AND p_imported_from IS NULL)
            OR (p_imported_from IS NOT NULL AND n.local_state <> 'submitting')
            OR (n.origin = 'imported' AND n.local_state <> 'submitting' AND n.qr_copy_paste IS NULL
                AND n.depix_address IS NULL)) THEN
      PERFORM refuse_move('deposit', n.local_id, 'DPX11', 'a new top-up starts as submitting');
    END IF;
    INSERT INTO deposits (${D_COLS}, imported_from) VALUES (${prefixed(D_COLS, 'n')}, p_imported_from);
  ELSE
    SELECT * INTO v FROM record_move_refusal('deposit', to_jsonb(o), to_jsonb(n), false, false);
    IF v.code IS NOT NULL THEN
      PERFORM refuse_move('deposit', n.local_id, v.code, v.msg);
    END IF;
    before := state_hash(deposit_state(o));
    UPDATE deposits SET (${D_COLS}) = (${prefixed(D_COLS, 'n')}) WHERE id = o.id;
  END IF;
  SELECT * INTO d FROM deposits WHERE local_id = n.local_id;
  after := state_hash(deposit_state(d));
  IF after IS NOT DISTINCT FROM before THEN
    RETURN after;
  END IF;
  IF p_action IS NULL OR p_action NOT LIKE 'deposit.%' THEN
    PERFORM refuse_move('deposit', n.local_id, 'DPX14', 'a change needs its deposit.* audit action');
  END IF;
  PERFORM audit_write(p_action, n.local_id, p_details, after);
  RETURN after;
END $$;

-- The row lock a desk takes before it reads the state it will build on (SELECT … FOR UPDATE needs the UPDATE
-- privilege analysts no longer have); held until the desk's transaction ends, whichever role took it.
CREATE FUNCTION lock_record(p_kind text, p_local_id text) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER ${sp} AS $$
BEGIN
  IF p_kind = 'withdrawal' THEN
    PERFORM 1 FROM withdrawals WHERE local_id = p_local_id FOR UPDATE;
  ELSIF p_kind = 'deposit' THEN
    PERFORM 1 FROM deposits WHERE local_id = p_local_id FOR UPDATE;
  ELSE
    RAISE EXCEPTION 'unknown record kind %', p_kind USING ERRCODE = '22023';
  END IF;
END $$;

-- An observation of a record the service knows or may know (a create's own answer is stored before the record
-- is written as created), stored as the desk received it.
CREATE FUNCTION add_observation(p_kind text, p_local_id text, p_observed_at text, p_status text, p_body jsonb,
  p_request_id text, p_nonce text, p_applied boolean) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER ${sp} AS $$
BEGIN
  IF p_kind = 'withdrawal' THEN
    IF NOT EXISTS (SELECT 1 FROM withdrawals WHERE local_id = p_local_id
                   AND (local_state IN ('submitting', 'outcome_unknown', 'created') OR imported_from IS NOT NULL)) THEN
      PERFORM refuse_move('withdrawal', p_local_id, 'DPX11', 'a rejected or not created record is not observed');
    END IF;
    INSERT INTO observations (local_id, observed_at, remote_status, body, request_id, nonce, applied)
      VALUES (p_local_id, p_observed_at, p_status, p_body, p_request_id, p_nonce, p_applied);
  ELSIF p_kind = 'deposit' THEN
    IF NOT EXISTS (SELECT 1 FROM deposits WHERE local_id = p_local_id
                   AND (local_state IN ('submitting', 'outcome_unknown', 'created') OR imported_from IS NOT NULL)) THEN
      PERFORM refuse_move('deposit', p_local_id, 'DPX11', 'a rejected or not created top-up is not observed');
    END IF;
    INSERT INTO deposit_observations (local_id, observed_at, remote_status, body, request_id, nonce, applied)
      VALUES (p_local_id, p_observed_at, p_status, p_body, p_request_id, p_nonce, p_applied);
  ELSE
    RAISE EXCEPTION 'unknown record kind %', p_kind USING ERRCODE = '22023';
  END IF;
END $$;

${teamRulesSql({ sp, ISO_NOW, ANALYST_GROUP })}
REVOKE INSERT, UPDATE, DELETE, TRUNCATE ON withdrawals, deposits, observations, deposit_observations
  FROM ${ANALYST_GROUP};
REVOKE ALL ON status_ranks, record_moves, run_row_moves, run_moves FROM PUBLIC;
GRANT SELECT ON status_ranks, record_moves, run_row_moves, run_moves TO ${ANALYST_GROUP};
REVOKE EXECUTE ON FUNCTION utf16_units(text), js_number(numeric), canonical_json(jsonb), state_hash(jsonb),
  json_or_null(jsonb), withdrawal_state(withdrawals), deposit_state(deposits), status_norm(text),
  status_terminal(text, text, boolean), status_move_ok(text, text, boolean, text, boolean),
  record_move_refusal(text, jsonb, jsonb, boolean, boolean), append_audit(text, text, text, text),
  refuse_move(text, text, text, text), write_withdrawal(jsonb, boolean, uuid, text, text),
  write_deposit(json, boolean, text, text, text), add_observation(text, text, text, text, jsonb, text, text, boolean),
  lock_record(text, text), run_rows_final(), runs_state_moves(), treasury_address_identity(), treasury_address_audit() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION canonical_json(jsonb), state_hash(jsonb), withdrawal_state(withdrawals),
  deposit_state(deposits), append_audit(text, text, text, text), write_withdrawal(jsonb, boolean, uuid, text, text),
  write_deposit(json, boolean, text, text, text), add_observation(text, text, text, text, jsonb, text, text, boolean),
  lock_record(text, text) TO ${ANALYST_GROUP};
`
}
