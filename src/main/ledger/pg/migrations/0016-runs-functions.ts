/**
 * Team ledger migration 16 (issue #24): runs, run rows, waves and the payee book are written only through functions.
 *
 * Before it an analyst role wrote `runs`, `run_rows` and `run_waves` directly (migrations 3, 7, 11, 13 checked the
 * moves with triggers) and the audit entry of a run or row carried the state hash her desk computed. Now analysts
 * have no INSERT/UPDATE/DELETE on those tables; each write pg/run-store.ts and pg/desk-import.ts made is one
 * SECURITY DEFINER function here that locks the run (and row), refuses a state the caller did not expect (DPX17),
 * refuses to build on a run or row that differs from its latest audit entry (DPX16), writes it (the triggers of
 * migrations 3, 7, 11 and 13 still fire, with `session_user` the analyst) and appends the audit entry itself with
 * the state hash the DATABASE computes from the row as stored (`run_state` / `run_row_state`: ledger/sqlite/runs.ts
 * `stateHash` in SQL, tested against it in test/main/ledger/pg/run-state-hash-sql.test.ts).
 *
 * The entry's details are the desk's (canonical JSON, as `append_audit` took them); the fields the database knows
 * (`from`, a row's `state`) are written by the database over them.
 *
 * The payee book likewise: no INSERT/UPDATE/DELETE on `payees` (nor `payee_keys`, kept by migration 2's trigger);
 * `payee_write` creates, updates or removes (keeps as removed) an entry under the book's lock, refuses a change to
 * an entry that is not the version the desk read (DPX19, `payee_changed`), and audits it with `payee_state`'s hash
 * (ledger/sqlite/payee-states.ts `payeeStateHash` in SQL). The validation and the "taken" checks stay the desk's reads
 * (main/payees/service.ts); the unique indexes stay the backstop.
 */
export function runsFunctionsMigrationSql(names: { SCHEMA: string; ANALYST_GROUP: string }): string {
  const { SCHEMA, ANALYST_GROUP } = names
  const sp = `SET search_path = ${SCHEMA}, pg_temp`
  const owner = `(SELECT pg_get_userbyid(nspowner) FROM pg_namespace WHERE nspname = '${SCHEMA}')`
  return `
-- Runs and payees are audited by their functions now: an analyst's own append_audit may no longer write their
-- entries, nor a state hash naming a run, a run row or a payee (a forged "latest state" would make the run or
-- payee read as changed outside the app). Migration 11's body otherwise.
CREATE OR REPLACE FUNCTION append_audit(p_action text, p_subject text, p_details text, p_state_hash text)
RETURNS audit_log LANGUAGE plpgsql SECURITY DEFINER ${sp} AS $$
BEGIN
  IF session_user <> ${owner} AND (
       ((p_action LIKE 'withdrawal.%' OR p_action LIKE 'deposit.%') AND p_action NOT LIKE '%.flagged')
       OR p_action LIKE 'run.%' OR p_action LIKE 'payee.%'
       OR (p_state_hash IS NOT NULL AND p_state_hash <> '' AND (
         EXISTS (SELECT 1 FROM withdrawals WHERE local_id = p_subject)
         OR EXISTS (SELECT 1 FROM deposits WHERE local_id = p_subject)
         OR EXISTS (SELECT 1 FROM runs WHERE run_id = split_part(p_subject, '#', 1))
         OR p_subject LIKE 'payee:%'))) THEN
    RAISE EXCEPTION 'a record''s audit entries are written by the database with the change itself (%)', p_action
      USING ERRCODE = 'DPX14';
  END IF;
  RETURN audit_write(p_action, p_subject, p_details, p_state_hash);
END $$;

-- ledger/runs.ts runFields / runRowFields: the state a run's or row's audit entry hashes.
CREATE FUNCTION run_state(r runs) RETURNS jsonb LANGUAGE sql STABLE ${sp} AS $$
  SELECT jsonb_build_object('runId', r.run_id, 'profile', r.profile, 'operator', r.operator, 'name', r.name,
    'createdAt', r.created_at, 'updatedAt', r.updated_at, 'state', r.state, 'approvedHash', r.approved_hash,
    'approvedAt', r.approved_at, 'approvedBy', r.approved_by, 'wave', r.wave, 'rowCount', r.row_count)
$$;

CREATE FUNCTION run_row_state(r run_rows) RETURNS jsonb LANGUAGE sql STABLE ${sp} AS $$
  SELECT jsonb_build_object('runId', r.run_id, 'idx', r.idx, 'line', r.line, 'draft', r.draft, 'payee', r.payee,
    'duplicate', json_or_null(r.duplicate), 'decision', r.decision, 'state', r.state, 'wave', r.wave,
    'localId', r.local_id, 'heldReason', r.held_reason)
$$;

CREATE FUNCTION run_refuse(p_code text, p_msg text) RETURNS void LANGUAGE plpgsql ${sp} AS $$
BEGIN
  RAISE EXCEPTION '%', p_msg USING ERRCODE = p_code,
    HINT = 'A alteração do lote não é permitida pelo livro-caixa da equipe / the team ledger does not allow this run change';
END $$;

-- A run or row is built upon only when it is what its latest audit entry says (ledger/runs.ts assertUntampered).
CREATE FUNCTION run_assert_audited(p_subject text, p_hash text) RETURNS void LANGUAGE plpgsql ${sp} AS $$
BEGIN
  IF (SELECT state_hash FROM audit_log WHERE subject = p_subject AND state_hash IS NOT NULL
      ORDER BY seq DESC LIMIT 1) IS DISTINCT FROM p_hash THEN
    PERFORM run_refuse('DPX16', 'run state ' || p_subject || ' differs from its last audit entry');
  END IF;
END $$;

CREATE FUNCTION run_lock(p_run_id text) RETURNS runs LANGUAGE plpgsql ${sp} AS $$
DECLARE
  r runs;
BEGIN
  SELECT * INTO r FROM runs WHERE run_id = p_run_id FOR UPDATE;
  IF NOT FOUND THEN
    PERFORM run_refuse('DPX18', 'no run ' || p_run_id);
  END IF;
  RETURN r;
END $$;

-- The audited update of a run (the run locked by the caller): its new state hash is the database's.
CREATE FUNCTION run_write(o runs, p_state text, p_approved_hash text, p_requested_hash text, p_wave integer,
  p_action text, p_details jsonb) RETURNS runs LANGUAGE plpgsql ${sp} AS $$
DECLARE
  r runs;
BEGIN
  PERFORM run_assert_audited(o.run_id, state_hash(run_state(o)));
  UPDATE runs SET state = p_state, approved_hash = p_approved_hash, approval_requested_hash = p_requested_hash,
    wave = p_wave WHERE run_id = o.run_id RETURNING * INTO r;
  PERFORM audit_write(p_action, r.run_id, canonical_json(p_details), state_hash(run_state(r)));
  RETURN r;
END $$;

-- The audited update of a run row (locked by the caller); the entry's details carry the row's state as written.
CREATE FUNCTION run_row_write(o run_rows, p_change jsonb, p_action text, p_details jsonb) RETURNS run_rows
LANGUAGE plpgsql ${sp} AS $$
DECLARE
  w run_rows;
  subj text := o.run_id || '#' || o.idx;
BEGIN
  PERFORM run_assert_audited(subj, state_hash(run_row_state(o)));
  UPDATE run_rows SET
    draft = CASE WHEN p_change ? 'draft' THEN p_change -> 'draft' ELSE draft END,
    decision = CASE WHEN p_change ? 'decision' THEN p_change ->> 'decision' ELSE decision END,
    state = CASE WHEN p_change ? 'state' THEN p_change ->> 'state' ELSE state END,
    wave = CASE WHEN p_change ? 'wave' THEN (p_change ->> 'wave')::integer ELSE wave END,
    local_id = CASE WHEN p_change ? 'localId' THEN p_change ->> 'localId' ELSE local_id END,
    held_reason = CASE WHEN p_change ? 'heldReason' THEN p_change ->> 'heldReason' ELSE held_reason END
  WHERE run_id = o.run_id AND idx = o.idx RETURNING * INTO w;
  PERFORM audit_write(p_action, subj, canonical_json(jsonb_build_object('state', w.state) || p_details),
    state_hash(run_row_state(w)));
  RETURN w;
END $$;

/*
 * A new run (created from an import file, or carried from a desk ledger: imported_from set) with its audit entry.
 * What a new run may be is decided by runs_guard and the desk-import triggers, as it was for an INSERT.
 */
CREATE FUNCTION run_insert(p_run jsonb, p_action text, p_details text) RETURNS runs
LANGUAGE plpgsql SECURITY DEFINER ${sp} AS $$
DECLARE
  r runs;
BEGIN
  IF p_action NOT IN ('run.imported', 'run.imported_from_desk') THEN
    PERFORM run_refuse('DPX14', 'a new run is audited as run.imported or run.imported_from_desk');
  END IF;
  INSERT INTO runs (run_id, profile, operator, name, row_count, imported_from, state, wave, created_at)
    VALUES (p_run ->> 'runId', p_run ->> 'profile', p_run ->> 'operator', p_run ->> 'name',
      (p_run ->> 'rowCount')::integer, p_run ->> 'importedFrom', coalesce(p_run ->> 'state', 'draft'),
      coalesce((p_run ->> 'wave')::integer, 0), coalesce(p_run ->> 'createdAt', ''))
    RETURNING * INTO r;
  PERFORM audit_write(p_action, r.run_id, canonical_json(p_details::jsonb), state_hash(run_state(r)));
  RETURN r;
END $$;

-- A new row of a run (run_rows_guard and run_rows_harden decide what it may be, as for an INSERT).
CREATE FUNCTION run_row_insert(p_row jsonb, p_action text, p_details text) RETURNS run_rows
LANGUAGE plpgsql SECURITY DEFINER ${sp} AS $$
DECLARE
  w run_rows;
BEGIN
  IF p_action NOT IN ('run.row_imported', 'run.row_imported_from_desk') THEN
    PERFORM run_refuse('DPX14', 'a new run row is audited as run.row_imported or run.row_imported_from_desk');
  END IF;
  INSERT INTO run_rows (run_id, idx, line, draft, payee, duplicate, decision, state, wave, local_id, held_reason)
    VALUES (p_row ->> 'runId', (p_row ->> 'idx')::integer, (p_row ->> 'line')::integer, p_row -> 'draft',
      p_row -> 'payee', json_or_null(p_row -> 'duplicate'), p_row ->> 'decision', coalesce(p_row ->> 'state', 'pending'),
      (p_row ->> 'wave')::integer, p_row ->> 'localId', p_row ->> 'heldReason')
    RETURNING * INTO w;
  PERFORM audit_write(p_action, w.run_id || '#' || w.idx,
    canonical_json(jsonb_build_object('state', w.state) || p_details::jsonb), state_hash(run_row_state(w)));
  RETURN w;
END $$;

-- A run's state moved (approve with the rows hash, pause, resume, cancel, complete…), when it is one of p_from.
CREATE FUNCTION run_set_state(p_run_id text, p_from text[], p_to text, p_approved_hash text, p_action text,
  p_details text) RETURNS runs LANGUAGE plpgsql SECURITY DEFINER ${sp} AS $$
DECLARE
  o runs := run_lock(p_run_id);
BEGIN
  IF p_action NOT LIKE 'run.%' THEN
    PERFORM run_refuse('DPX14', 'a run change needs its run.* audit action');
  END IF;
  IF NOT (o.state = ANY (p_from)) THEN
    PERFORM run_refuse('DPX17', 'run ' || p_run_id || ': ' || o.state || ' -> ' || p_to || ' is not allowed');
  END IF;
  RETURN run_write(o, p_to, coalesce(p_approved_hash, o.approved_hash), o.approval_requested_hash, o.wave, p_action,
    jsonb_build_object('from', o.state, 'to', p_to) || p_details::jsonb);
END $$;

-- A draft asked for another analyst's approval of the rows hash (runs_guard records who and when).
CREATE FUNCTION run_request_approval(p_run_id text, p_hash text, p_details text) RETURNS runs
LANGUAGE plpgsql SECURITY DEFINER ${sp} AS $$
DECLARE
  o runs := run_lock(p_run_id);
BEGIN
  IF o.state <> 'draft' THEN
    PERFORM run_refuse('DPX17', 'run ' || p_run_id || ': ' || o.state || ' cannot be asked for approval');
  END IF;
  RETURN run_write(o, o.state, o.approved_hash, p_hash, o.wave, 'run.approval_requested', p_details::jsonb);
END $$;

/*
 * A row changed (decision, draft, state, wave, local id, held reason: p_change names only what changes), when its
 * state is one of p_from. A changed decision voids the run's approval (or request) first, audited as
 * run.approval_voided with p_void_details: the approval named the rows as they were.
 */
CREATE FUNCTION run_change_row(p_run_id text, p_idx integer, p_from text[], p_change jsonb, p_action text,
  p_details text, p_void_details text) RETURNS run_rows LANGUAGE plpgsql SECURITY DEFINER ${sp} AS $$
DECLARE
  r runs := run_lock(p_run_id);
  o run_rows;
BEGIN
  IF p_action NOT LIKE 'run.%' THEN
    PERFORM run_refuse('DPX14', 'a run row change needs its run.* audit action');
  END IF;
  SELECT * INTO o FROM run_rows WHERE run_id = p_run_id AND idx = p_idx FOR UPDATE;
  IF NOT FOUND THEN
    PERFORM run_refuse('DPX18', 'no row ' || p_idx || ' in run ' || p_run_id);
  END IF;
  IF NOT (o.state = ANY (p_from)) THEN
    PERFORM run_refuse('DPX17', 'run ' || p_run_id || ' row ' || p_idx || ': ' || o.state || ' is not one of '
      || array_to_string(p_from, ', '));
  END IF;
  IF p_change ? 'decision' AND (p_change ->> 'decision') IS DISTINCT FROM o.decision
     AND (r.approved_hash IS NOT NULL OR r.approval_requested_hash IS NOT NULL) THEN
    PERFORM run_write(r, 'draft', NULL, NULL, r.wave, 'run.approval_voided', p_void_details::jsonb);
  END IF;
  RETURN run_row_write(o, p_change, p_action, p_details::jsonb);
END $$;

-- The next wave started: the run creating (so its rows may leave), the wave recorded, its rows queued.
CREATE FUNCTION run_start_wave(p_run_id text, p_wave integer, p_idxs integer[], p_details text, p_row_details text)
RETURNS runs LANGUAGE plpgsql SECURITY DEFINER ${sp} AS $$
DECLARE
  o runs := run_lock(p_run_id);
  n runs;
  w run_rows;
  i integer;
BEGIN
  IF o.state NOT IN ('approved', 'awaiting_funding', 'paused') OR p_wave IS DISTINCT FROM o.wave + 1 THEN
    PERFORM run_refuse('DPX17', 'run ' || p_run_id || ': cannot start wave ' || p_wave || ' from ' || o.state);
  END IF;
  n := run_write(o, 'creating', o.approved_hash, o.approval_requested_hash, p_wave, 'run.wave_started',
    p_details::jsonb);
  INSERT INTO run_waves (run_id, wave, planned) VALUES (p_run_id, p_wave, coalesce(cardinality(p_idxs), 0));
  FOREACH i IN ARRAY coalesce(p_idxs, '{}') LOOP
    SELECT * INTO w FROM run_rows WHERE run_id = p_run_id AND idx = i FOR UPDATE;
    IF NOT FOUND THEN
      PERFORM run_refuse('DPX18', 'no row ' || i || ' in run ' || p_run_id);
    END IF;
    IF w.state <> 'pending' THEN
      PERFORM run_refuse('DPX17', 'row ' || i || ' is ' || w.state);
    END IF;
    PERFORM run_row_write(w, jsonb_build_object('state', 'queued', 'wave', p_wave), 'run.row_queued',
      p_row_details::jsonb);
  END LOOP;
  RETURN n;
END $$;

-- A wave's deposit marked sent (once; run_waves_guard stamps the time).
CREATE FUNCTION run_wave_funded(p_run_id text, p_wave integer, p_tx_id text, p_details text) RETURNS run_waves
LANGUAGE plpgsql SECURITY DEFINER ${sp} AS $$
DECLARE
  w run_waves;
BEGIN
  SELECT * INTO w FROM run_waves WHERE run_id = p_run_id AND wave = p_wave FOR UPDATE;
  IF NOT FOUND THEN
    PERFORM run_refuse('DPX18', 'no wave ' || p_wave || ' in run ' || p_run_id);
  END IF;
  IF w.funded_at IS NOT NULL THEN
    PERFORM run_refuse('DPX17', 'wave ' || p_wave || ' is already marked funded');
  END IF;
  UPDATE run_waves SET funding_tx_id = p_tx_id WHERE run_id = p_run_id AND wave = p_wave RETURNING * INTO w;
  PERFORM audit_write('run.wave_funded', p_run_id,
    canonical_json(p_details::jsonb || jsonb_build_object('wave', p_wave, 'txId', p_tx_id)), NULL);
  RETURN w;
END $$;

-- ledger/payee-states.ts payeeStateHash's state: the payee as pg/payees.ts reads it back, or { removed: true }.
CREATE FUNCTION payee_state(p payees) RETURNS jsonb LANGUAGE sql STABLE ${sp} AS $$
  SELECT CASE WHEN p.removed_at IS NOT NULL THEN '{"removed":true}'::jsonb ELSE
    jsonb_build_object('id', p.id, 'name', p.name, 'taxNumber', p.tax_number,
      'pixKeys', coalesce((SELECT jsonb_agg(jsonb_build_object('key', k -> 'key', 'type', k -> 'type') ORDER BY i)
        FROM jsonb_array_elements(p.pix_keys) WITH ORDINALITY AS e(k, i)), '[]'::jsonb),
      'createdAt', p.created_at, 'updatedAt', p.updated_at)
    || CASE WHEN p.euid IS NULL THEN '{}'::jsonb ELSE jsonb_build_object('euid', p.euid) END
    || CASE WHEN p.notes IS NULL THEN '{}'::jsonb ELSE jsonb_build_object('notes', p.notes) END END
$$;

/*
 * The one way an analyst writes the payee book. p_action: payee.created / payee.imported_from_desk (a new entry:
 * p_fields' id, name, taxNumber, pixKeys, euid, notes, searchText, importedFrom), payee.updated (p_fields) or
 * payee.removed, the last two only on the live entry p_id whose updated_at is p_expected.
 */
CREATE FUNCTION payee_write(p_id text, p_fields jsonb, p_expected text, p_action text, p_details text)
RETURNS payees LANGUAGE plpgsql SECURITY DEFINER ${sp} AS $$
DECLARE
  o payees;
  n payees;
BEGIN
  -- The book's one write lock (pg/payees.ts BOOK_LOCK): the desks' "already taken" checks see every write before.
  PERFORM pg_advisory_xact_lock(727016004);
  IF p_action IN ('payee.created', 'payee.imported_from_desk') THEN
    INSERT INTO payees (id, name, tax_number, pix_keys, euid, notes, search_text, imported_from)
      VALUES (coalesce(p_fields ->> 'id', gen_random_uuid()::text), p_fields ->> 'name', p_fields ->> 'taxNumber',
        p_fields -> 'pixKeys', p_fields ->> 'euid', p_fields ->> 'notes', p_fields ->> 'searchText',
        CASE WHEN p_action = 'payee.imported_from_desk' THEN p_fields ->> 'importedFrom' END)
      RETURNING * INTO n;
  ELSIF p_action IN ('payee.updated', 'payee.removed') THEN
    SELECT * INTO o FROM payees WHERE id = p_id AND removed_at IS NULL FOR UPDATE;
    IF NOT FOUND OR o.updated_at IS DISTINCT FROM p_expected THEN
      PERFORM run_refuse('DPX19', 'payee ' || p_id || ' is not the version read');
    END IF;
    IF p_action = 'payee.removed' THEN
      UPDATE payees SET removed_at = 'removed' WHERE id = p_id RETURNING * INTO n;
    ELSE
      UPDATE payees SET name = p_fields ->> 'name', tax_number = p_fields ->> 'taxNumber',
        pix_keys = p_fields -> 'pixKeys', euid = p_fields ->> 'euid', notes = p_fields ->> 'notes',
        search_text = p_fields ->> 'searchText' WHERE id = p_id RETURNING * INTO n;
    END IF;
  ELSE
    PERFORM run_refuse('DPX14', 'a payee change is audited as payee.created, .imported_from_desk, .updated or .removed');
  END IF;
  PERFORM audit_write(p_action, 'payee:' || n.id, canonical_json(p_details::jsonb), state_hash(payee_state(n)));
  RETURN n;
END $$;

REVOKE INSERT, UPDATE, DELETE, TRUNCATE ON payees, payee_keys FROM ${ANALYST_GROUP};
REVOKE EXECUTE ON FUNCTION payee_state(payees), payee_write(text, jsonb, text, text, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION payee_state(payees), payee_write(text, jsonb, text, text, text) TO ${ANALYST_GROUP};

REVOKE INSERT, UPDATE, DELETE, TRUNCATE ON runs, run_rows, run_waves FROM ${ANALYST_GROUP};
REVOKE EXECUTE ON FUNCTION run_state(runs), run_row_state(run_rows), run_refuse(text, text),
  run_assert_audited(text, text), run_lock(text), run_write(runs, text, text, text, integer, text, jsonb),
  run_row_write(run_rows, jsonb, text, jsonb), run_insert(jsonb, text, text), run_row_insert(jsonb, text, text),
  run_set_state(text, text[], text, text, text, text), run_request_approval(text, text, text),
  run_change_row(text, integer, text[], jsonb, text, text, text), run_start_wave(text, integer, integer[], text, text),
  run_wave_funded(text, integer, text, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION run_state(runs), run_row_state(run_rows), run_insert(jsonb, text, text),
  run_row_insert(jsonb, text, text), run_set_state(text, text[], text, text, text, text),
  run_request_approval(text, text, text), run_change_row(text, integer, text[], jsonb, text, text, text),
  run_start_wave(text, integer, integer[], text, text), run_wave_funded(text, integer, text, text)
  TO ${ANALYST_GROUP};
`
}
