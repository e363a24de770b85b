/**
 * Issue #27 through the app on a team: the owner registers the team's treasury wallet in the team database (team
 * migration 18), and two desks — two app contexts, two analyst roles — open their team profile and watch it: the
 * Caixa view is ready on both without anyone pasting a descriptor on a desk, both recognise the wallet's addresses,
 * and no view carries the descriptor. (Scanning the same chain to the same balance and statement is
 * test/main/wallet/team-wallet.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { receiveAddresses, setTeamWallet } from '../../../src/main/wallet/team-wallet'
import type { WalletViewDto } from '../../../src/shared/channels-wallet'
import { announceSkip, PG_SKIP_REASON } from '../../support/postgres'
import { singlesigMainnet } from '../wallet/fixtures'
import { startDesks, until, type Desk, type DeskRig } from './team-rig'

announceSkip('the team treasury wallet on two desks (postgres)')

describe.skipIf(PG_SKIP_REASON !== null)('the team treasury wallet on two desks', () => {
  let rig: DeskRig
  let desks: Desk[]
  const descriptor = singlesigMainnet(27)

  beforeAll(async () => {
    rig = await startDesks([])
    const owner = await rig.team.owner()
    await setTeamWallet(owner, descriptor, 'liquid', 5)
    desks = []
    for (const role of ['ana', 'bia']) {
      await rig.team.addAnalyst(role)
      desks.push(await rig.openDesk(role, rig.settingsFor(role), `${role}-pw`))
    }
  }, 180_000)
  afterAll(async () => {
    for (const d of desks ?? []) await d.ctx.close().catch(() => undefined)
    await rig?.stop()
  })

  it('both desks watch the team’s wallet, read from the database; the descriptor never crosses IPC', async () => {
    for (const d of desks) {
      const v = await until('the team wallet', async () => {
        const r = await d.call('wallet:get', {})
        const view = r.data as WalletViewDto | undefined
        return view?.state === 'ready' ? view : undefined
      })
      expect(v.multisig).toBe(false)
      const [first] = receiveAddresses(descriptor, 'liquid', 1)
      expect((await d.call('wallet:checkAddress', { address: first })).data).toEqual({
        owner: 'treasury',
        index: 0,
      })
      expect(d.payloads.join('\n')).not.toContain(descriptor.slice(20, 60))
    }
  })
})
