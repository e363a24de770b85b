/** Builds out/team-ledger (or `dir`); resolves to the built script's path. */
export function buildTeamLedger(dir?: string): Promise<string>
