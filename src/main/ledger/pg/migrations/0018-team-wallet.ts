/**
 * Team ledger migration 18 (issue #27): the team's treasury wallet, watched by every desk.
 *
 * `team_wallet` holds the one watch-only CT descriptor of the team (it reveals the wallet's whole history: it is
 * kept from PUBLIC, analysts only read it). It is written by the owner only, through `team_wallet_set` /
 * `team_wallet_clear` (SECURITY DEFINER, not granted to analysts), each audited with the descriptor's SHA-256 —
 * never the descriptor itself, since the audit chain goes into every export. The table refuses what is plainly
 * not a watch-only CT descriptor (an extended private key); the owner CLI checks it with LWK before it gets here
 * (src/main/wallet/team-wallet.ts).
 */
export function teamWalletMigrationSql(names: {
  SCHEMA: string
  ANALYST_GROUP: string
  ISO_NOW_SQL: string
}): string {
  const { SCHEMA, ANALYST_GROUP, ISO_NOW_SQL } = names
  const sp = `SET search_path = ${SCHEMA}, pg_temp`
  return `
CREATE TABLE team_wallet (
  id integer PRIMARY KEY DEFAULT 1 CHECK (id = 1),
  descriptor text NOT NULL CHECK (
    length(descriptor) BETWEEN 4 AND 5000
    AND descriptor LIKE 'ct(%'
    AND descriptor !~ '[xtuvyz]prv[1-9A-HJ-NP-Za-km-z]'
  ),
  network text NOT NULL CHECK (network IN ('liquid', 'testnet', 'regtest')),
  set_by text NOT NULL DEFAULT session_user,
  set_at text NOT NULL DEFAULT ${ISO_NOW_SQL}
);
CREATE TRIGGER team_wallet_no_truncate BEFORE TRUNCATE ON team_wallet
  FOR EACH STATEMENT EXECUTE FUNCTION forbid_truncate();
REVOKE ALL ON team_wallet FROM PUBLIC;
GRANT SELECT ON team_wallet TO ${ANALYST_GROUP};

CREATE FUNCTION team_wallet_set(p_descriptor text, p_network text) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER ${sp} AS $$
BEGIN
  INSERT INTO team_wallet (id, descriptor, network) VALUES (1, p_descriptor, p_network)
    ON CONFLICT (id) DO UPDATE SET descriptor = EXCLUDED.descriptor, network = EXCLUDED.network,
      set_by = session_user, set_at = ${ISO_NOW_SQL};
  PERFORM audit_write('treasury.wallet_set', 'team-wallet',
    canonical_json(jsonb_build_object('network', p_network,
      'descriptorSha256', encode(sha256(convert_to(p_descriptor, 'UTF8')), 'hex'))), NULL);
END $$;

CREATE FUNCTION team_wallet_clear() RETURNS void
LANGUAGE plpgsql SECURITY DEFINER ${sp} AS $$
BEGIN
  DELETE FROM team_wallet WHERE id = 1;
  IF FOUND THEN
    PERFORM audit_write('treasury.wallet_cleared', 'team-wallet', '{}', NULL);
  END IF;
END $$;

REVOKE ALL ON FUNCTION team_wallet_set(text, text), team_wallet_clear() FROM PUBLIC;
`
}
