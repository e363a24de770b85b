/**
 * Part of team ledger migration 11 (migration-state-machine.ts): the audited state hash computed by the database.
 * `canonical_json` is ledger/model/canonical-json.ts in SQL (keys in UTF-16 code unit order, numbers as JavaScript writes
 * them), `withdrawal_state` / `deposit_state` are the row readers (pg/rows.ts, pg/deposit-rows.ts) without
 * `remoteCheckedAt`, and `state_hash` is ledger/model/state-hash.ts. Tested against the TypeScript functions:
 * test/main/ledger/pg/state-hash-sql.test.ts.
 */

/** `sp`: the functions' `SET search_path` clause. */
export function stateHashSql(sp: string): string {
  return `
-- ledger/canonical-json.ts in SQL: keys in UTF-16 code unit order, numbers as JavaScript writes them.
CREATE FUNCTION utf16_units(k text) RETURNS int[] LANGUAGE plpgsql IMMUTABLE ${sp} AS $$
DECLARE
  out int[] := '{}';
  cp int;
BEGIN
  FOR i IN 1 .. length(k) LOOP
    cp := ascii(substr(k, i, 1));
    IF cp < 65536 THEN
      out := out || cp;
    ELSE
      out := out || (55296 + ((cp - 65536) >> 10)) || (56320 + ((cp - 65536) & 1023));
    END IF;
  END LOOP;
  RETURN out;
END $$;

-- Number#toString for a value JSON.stringify wrote: plain between 1e-6 and 1e21, else the shortest digits with an
-- exponent. Done on the decimal text (exact), not by arithmetic (numeric power() rounds at large exponents).
CREATE FUNCTION js_number(n numeric) RETURNS text LANGUAGE plpgsql IMMUTABLE ${sp} AS $$
DECLARE
  a numeric := abs(n);
  t text;
  ip text;
  digits text;
  lead int;
  ds text;
  e int;
BEGIN
  IF n = 0 THEN
    RETURN '0';
  END IF;
  IF a < 1e21 AND a >= 1e-6 THEN
    RETURN trim_scale(n)::text;
  END IF;
  t := trim_scale(a)::text;
  ip := split_part(t, '.', 1);
  digits := ip || split_part(t, '.', 2);
  lead := length(digits) - length(ltrim(digits, '0'));
  ds := rtrim(ltrim(digits, '0'), '0');
  e := length(ip) - 1 - lead;
  RETURN CASE WHEN n < 0 THEN '-' ELSE '' END || left(ds, 1)
    || CASE WHEN length(ds) > 1 THEN '.' || substr(ds, 2) ELSE '' END
    || 'e' || CASE WHEN e >= 0 THEN '+' ELSE '-' END || abs(e)::text;
END $$;

CREATE FUNCTION canonical_json(j jsonb) RETURNS text LANGUAGE plpgsql IMMUTABLE ${sp} AS $$
DECLARE
  out text;
BEGIN
  CASE jsonb_typeof(j)
    WHEN 'object' THEN
      SELECT '{' || coalesce(string_agg(to_json(k)::text || ':' || canonical_json(v), ',' ORDER BY utf16_units(k)), '')
        || '}' INTO out FROM jsonb_each(j) AS e(k, v);
    WHEN 'array' THEN
      SELECT '[' || coalesce(string_agg(canonical_json(v), ',' ORDER BY i), '') || ']' INTO out
        FROM jsonb_array_elements(j) WITH ORDINALITY AS e(v, i);
    WHEN 'string' THEN out := to_json(j #>> '{}')::text;
    WHEN 'number' THEN out := js_number((j #>> '{}')::numeric);
    WHEN 'boolean' THEN out := j #>> '{}';
    ELSE out := 'null';
  END CASE;
  RETURN out;
END $$;

CREATE FUNCTION state_hash(state jsonb) RETURNS text LANGUAGE sql IMMUTABLE ${sp} AS $$
  SELECT encode(sha256(convert_to(canonical_json(state), 'UTF8')), 'hex')
$$;

-- A JSON column as pg/rows.ts reads it back: JSON null and SQL NULL are one null.
CREATE FUNCTION json_or_null(j jsonb) RETURNS jsonb LANGUAGE sql IMMUTABLE ${sp} AS $$
  SELECT CASE WHEN j IS NULL OR j = 'null'::jsonb THEN NULL ELSE j END
$$;

-- pg/rows.ts rowToRecord without remoteCheckedAt: the state ledger/state-hash.ts hashes.
CREATE FUNCTION withdrawal_state(w withdrawals) RETURNS jsonb LANGUAGE sql STABLE ${sp} AS $$
  SELECT jsonb_build_object('localId', w.local_id, 'profile', w.profile, 'operator', w.operator,
    'createdAt', w.created_at, 'updatedAt', w.updated_at, 'localState', w.local_state,
    'request', coalesce(json_or_null(w.request), '{}'::jsonb), 'pixKey', w.pix_key, 'amountKind', w.amount_kind,
    'amountCents', w.amount_cents, 'createResponse', json_or_null(w.create_response), 'remoteId', w.remote_id,
    'remoteStatus', w.remote_status, 'remoteStatusAt', w.remote_status_at, 'lastRemote', json_or_null(w.last_remote),
    'depositAddress', w.deposit_address, 'depositAmountCents', w.deposit_amount_cents,
    'payoutAmountCents', w.payout_amount_cents, 'expiration', w.expiration, 'fundedAt', w.funded_at,
    'fundingTxId', w.funding_tx_id, 'refund', json_or_null(w.refund), 'receiverName', w.receiver_name,
    'error', json_or_null(w.error), 'requestId', w.request_id,
    'flags', CASE WHEN jsonb_typeof(w.flags) = 'array' THEN w.flags ELSE '[]'::jsonb END)
    || CASE WHEN json_or_null(w.refs) IS NULL THEN '{}'::jsonb ELSE jsonb_build_object('references', w.refs) END
    || CASE WHEN json_or_null(w.expected_payee) IS NULL THEN '{}'::jsonb
       ELSE jsonb_build_object('expectedPayee', w.expected_payee) END
$$;

-- pg/deposit-rows.ts rowToDeposit without remoteCheckedAt.
CREATE FUNCTION deposit_state(d deposits) RETURNS jsonb LANGUAGE sql STABLE ${sp} AS $$
  SELECT jsonb_build_object('localId', d.local_id, 'profile', d.profile, 'operator', d.operator,
    'createdAt', d.created_at, 'updatedAt', d.updated_at, 'localState', d.local_state, 'origin', d.origin,
    'request', d.request::jsonb, 'amountCents', d.amount_cents, 'depixAddress', d.depix_address,
    'createResponse', json_or_null(d.create_response), 'remoteId', d.remote_id, 'remoteStatus', d.remote_status,
    'remoteStatusAt', d.remote_status_at, 'lastRemote', json_or_null(d.last_remote), 'qrCopyPaste', d.qr_copy_paste,
    'expiration', d.expiration, 'valueCents', d.value_cents, 'bankTxId', d.bank_tx_id,
    'blockchainTxId', d.blockchain_tx_id, 'payerName', d.payer_name, 'reversedAt', d.reversed_at,
    'error', json_or_null(d.error), 'requestId', d.request_id, 'flags', d.flags)
$$;
`
}
