/**
 * Team ledger migration: what a payment is for (its references: invoice, cost centre, category, note) and the
 * payee-book entry it was made to, on the withdrawal record and on an approval request, as the desk ledger keeps
 * them (SQLite migration 6). Without them a team payment lost both, and its state no longer matched the hash its
 * audit entry recorded (the hash covers them), so the next write of the record was refused as tampered.
 * Analysts' table privileges on `withdrawals` cover new columns; on `approvals` they are per column.
 */
export const referencesMigrationSql = (ANALYST_GROUP: string): string => `
ALTER TABLE withdrawals ADD COLUMN refs jsonb, ADD COLUMN expected_payee jsonb;
ALTER TABLE approvals ADD COLUMN refs jsonb, ADD COLUMN expected_payee jsonb;
GRANT INSERT (refs, expected_payee) ON approvals TO ${ANALYST_GROUP};
`
