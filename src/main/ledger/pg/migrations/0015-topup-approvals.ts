/**
 * Team ledger migration 15 (issue #24, attack 4): top-ups have four-eyes.
 *
 * Before it a top-up (a Pix deposit that buys DePix, delivered to a Liquid address) was created by one analyst
 * whatever its amount and wherever it delivered: R$ 2.000,00 of DePix to her own wallet with a R$ 100,00 limit.
 * Now a top-up made by the app needs an approval of kind `deposit` decided by another role when its amount is above
 * the team's limit (`team_settings.approval_above_cents`), or when the team registered treasury addresses and the
 * delivery address is not one of them (the rule the payments' refund address follows, migration 11). The approval
 * is the one mechanism of payments (`approvals`, its triggers, `decide_approval`, the Aprovações page): a request
 * carries the exact body that will be POSTed, `write_deposit` accepts the top-up only with an approved request of
 * that very body, local id and profile, and one top-up per approval (unique index).
 *
 * The desks' imports (a desk ledger's history, the service's own list) send nothing and need no approval.
 */
import { D_COLS, prefixed } from './0011-state-machine'

export function topUpApprovalsMigrationSql(names: { SCHEMA: string; ANALYST_GROUP: string }): string {
  const { SCHEMA, ANALYST_GROUP } = names
  const sp = `SET search_path = ${SCHEMA}, pg_temp`
  return `
-- An approval is of a payment (withdrawal: Pix key and amount kind) or of a top-up (deposit: delivery address).
ALTER TABLE approvals ADD COLUMN kind text NOT NULL DEFAULT 'withdrawal' CHECK (kind IN ('withdrawal', 'deposit')),
  ADD COLUMN depix_address text,
  ALTER COLUMN pix_key DROP NOT NULL,
  ALTER COLUMN amount_kind DROP NOT NULL,
  ADD CONSTRAINT approvals_kind_fields CHECK (CASE kind
    WHEN 'withdrawal' THEN pix_key IS NOT NULL AND amount_kind IS NOT NULL AND depix_address IS NULL
    ELSE pix_key IS NULL AND amount_kind IS NULL AND depix_address IS NOT NULL AND depix_address <> '' END);

-- What an approval is of never changes with its decision (approvals_guard keeps the rest).
CREATE FUNCTION approvals_kind_frozen() RETURNS trigger LANGUAGE plpgsql ${sp} AS $$
BEGIN
  NEW.kind := OLD.kind;
  NEW.depix_address := OLD.depix_address;
  RETURN NEW;
END $$;
CREATE TRIGGER approvals_kind_frozen BEFORE UPDATE ON approvals FOR EACH ROW EXECUTE FUNCTION approvals_kind_frozen();

-- A top-up's request is audited with its delivery address; a payment's entry is written as before.
CREATE OR REPLACE FUNCTION approvals_audit() RETURNS trigger LANGUAGE plpgsql ${sp} AS $$
BEGIN
  IF TG_OP = 'INSERT' AND NEW.kind = 'deposit' THEN
    PERFORM audit_write('approval.requested', NEW.local_id,
      '{"amountCents":' || NEW.amount_cents::text || ',"approvalId":' || to_json(NEW.id::text)::text
        || ',"depixAddress":' || to_json(NEW.depix_address)::text || ',"kind":"deposit"'
        || ',"profile":' || to_json(NEW.profile)::text || '}', NULL);
  ELSIF TG_OP = 'INSERT' THEN
    PERFORM audit_write('approval.requested', NEW.local_id,
      '{"amountCents":' || NEW.amount_cents::text || ',"amountKind":' || to_json(NEW.amount_kind)::text
        || ',"approvalId":' || to_json(NEW.id::text)::text || ',"pixKey":' || to_json(NEW.pix_key)::text
        || ',"profile":' || to_json(NEW.profile)::text || '}', NULL);
  ELSE
    PERFORM audit_write('approval.' || NEW.state, NEW.local_id,
      '{"approvalId":' || to_json(NEW.id::text)::text || ',"note":' || coalesce(to_json(NEW.decision_note)::text, 'null')
        || ',"requestedBy":' || to_json(NEW.requested_by)::text || '}', NULL);
  END IF;
  PERFORM pg_notify('depix_approvals', json_build_object('id', NEW.id, 'localId', NEW.local_id,
    'state', NEW.state, 'requestedBy', NEW.requested_by, 'decidedBy', NEW.decided_by)::text);
  RETURN NULL;
END $$;

-- A top-up's approval never lets a payment in (withdrawals_guard compares payment fields a top-up does not have).
CREATE FUNCTION withdrawals_approval_kind() RETURNS trigger LANGUAGE plpgsql ${sp} AS $$
BEGIN
  IF NEW.approval_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM approvals
      WHERE id = NEW.approval_id AND kind = 'withdrawal') THEN
    RAISE EXCEPTION 'payment % does not match an approved request', NEW.local_id USING ERRCODE = 'DPX02';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER withdrawals_approval_kind BEFORE INSERT ON withdrawals
  FOR EACH ROW EXECUTE FUNCTION withdrawals_approval_kind();

/*
 * A top-up's approval request: the exact body the desk will POST, its amount and delivery address (which must be
 * the body's own). Who asks, when, and "pending" come from approvals_guard.
 */
CREATE FUNCTION request_topup_approval(p_local_id text, p_profile text, p_request jsonb, p_note text)
RETURNS approvals LANGUAGE plpgsql SECURITY DEFINER ${sp} AS $$
DECLARE
  r approvals;
BEGIN
  IF jsonb_typeof(p_request -> 'amountInCents') IS DISTINCT FROM 'number'
     OR jsonb_typeof(p_request -> 'depixAddress') IS DISTINCT FROM 'string' THEN
    RAISE EXCEPTION 'a top-up request names its amount in cents and its delivery address' USING ERRCODE = '22023';
  END IF;
  INSERT INTO approvals (kind, local_id, profile, request, depix_address, amount_cents, note)
    VALUES ('deposit', p_local_id, p_profile, p_request, p_request ->> 'depixAddress',
      (p_request ->> 'amountInCents')::bigint, p_note)
    RETURNING * INTO r;
  RETURN r;
END $$;

-- Whether a top-up of this amount to this address needs another analyst's approval (the one rule, for desks too).
CREATE FUNCTION topup_needs_approval(p_amount_cents bigint, p_depix_address text) RETURNS boolean
LANGUAGE sql STABLE SECURITY DEFINER ${sp} AS $$
  SELECT coalesce((SELECT p_amount_cents > approval_above_cents FROM team_settings WHERE id = 1), false)
    OR (EXISTS (SELECT 1 FROM treasury_addresses)
        AND NOT EXISTS (SELECT 1 FROM treasury_addresses WHERE address = p_depix_address))
$$;

ALTER TABLE deposits ADD COLUMN approval_id uuid REFERENCES approvals (id);
CREATE UNIQUE INDEX deposits_one_per_approval ON deposits (approval_id) WHERE approval_id IS NOT NULL;

-- migration 11's write_deposit, with the approval a new top-up from the app may need (p_approval).
DROP FUNCTION write_deposit(json, boolean, text, text, text);
CREATE FUNCTION write_deposit(p_row json, p_new boolean, p_imported_from text, p_action text, p_details text,
  p_approval uuid DEFAULT NULL)
RETURNS text
LANGUAGE plpgsql SECURITY DEFINER ${sp} AS $$
DECLARE
  n deposits := json_populate_record(NULL::deposits, p_row);
  o deposits;
  d deposits;
  a approvals;
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
    IF n.local_state = 'submitting' THEN
      -- What the rule reads is what will be POSTed: the row's amount and address are the body's own.
      IF (n.request ->> 'amountInCents') IS DISTINCT FROM n.amount_cents::text
         OR (n.request ->> 'depixAddress') IS DISTINCT FROM n.depix_address THEN
        PERFORM refuse_move('deposit', n.local_id, 'DPX10', 'amount and address are the request''s own');
      END IF;
      IF p_approval IS NOT NULL OR topup_needs_approval(n.amount_cents, n.depix_address) THEN
        IF p_approval IS NULL THEN
          RAISE EXCEPTION 'top-up % needs an approval', n.local_id USING ERRCODE = 'DPX01';
        END IF;
        SELECT * INTO a FROM approvals WHERE id = p_approval FOR UPDATE;
        IF NOT FOUND OR a.kind <> 'deposit' OR a.state <> 'approved' OR a.local_id <> n.local_id
           OR a.profile <> n.profile OR a.request <> n.request::jsonb OR a.amount_cents <> n.amount_cents
           OR a.depix_address IS DISTINCT FROM n.depix_address THEN
          RAISE EXCEPTION 'top-up % does not match an approved request', n.local_id USING ERRCODE = 'DPX02';
        END IF;
      END IF;
    END IF;
    INSERT INTO deposits (${D_COLS}, imported_from, approval_id)
      VALUES (${prefixed(D_COLS, 'n')}, p_imported_from, p_approval);
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

REVOKE EXECUTE ON FUNCTION approvals_kind_frozen(), withdrawals_approval_kind(),
  request_topup_approval(text, text, jsonb, text), topup_needs_approval(bigint, text),
  write_deposit(json, boolean, text, text, text, uuid) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION request_topup_approval(text, text, jsonb, text), topup_needs_approval(bigint, text),
  write_deposit(json, boolean, text, text, text, uuid) TO ${ANALYST_GROUP};
`
}
