/**
 * Team ledger migration: every change of the payee book is announced on `depix_payees` (LISTEN in
 * ledger/team/leader.ts), so an open Favorecidos page on another desk re-reads the book instead of showing an
 * entry a colleague has just changed or removed. The payload is the entry's id only: a desk re-reads the row.
 */
export const payeeNotifyMigrationSql = (SCHEMA: string): string => `
CREATE FUNCTION payees_notify() RETURNS trigger LANGUAGE plpgsql SET search_path = ${SCHEMA}, pg_temp AS $$
BEGIN
  PERFORM pg_notify('depix_payees', json_build_object('id', NEW.id)::text);
  RETURN NULL;
END $$;
CREATE TRIGGER payees_notify AFTER INSERT OR UPDATE ON payees FOR EACH ROW EXECUTE FUNCTION payees_notify();
`
