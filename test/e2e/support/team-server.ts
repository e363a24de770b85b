/**
 * A team's PostgreSQL server for E2E specs: the throwaway cluster of the unit tests (test/support/postgres.ts),
 * set up the customer's way (test/main/ledger-store/team.ts). Without the server binaries `TEAM_SKIP_REASON`
 * says why, and the API contract skips with it.
 */
export { PG_SKIP_REASON as TEAM_SKIP_REASON } from '../../support/postgres'
export { DATABASE as TEAM_DATABASE, startTeam, type Team } from '../../main/ledger-store/team'
