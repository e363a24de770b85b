/**
 * No secret value ever crosses IPC: every channel of the contract is driven through the real router (real
 * sandbox, client, ledger, services, records), every result and event payload is collected, and all of them are
 * searched for the client secrets, the legacy token, every access and refresh token seen on the wire, and the
 * export signing private key.
 */
import diagnosticsChannel from 'node:diagnostics_channel'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { SANDBOX_TREASURY_MNEMONIC, sandboxTreasury } from '../../../src/main/sandbox/chain'
import { singlesigMainnet } from '../wallet/fixtures'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAppContext, type AppContext } from '../../../src/main/app/context'
import { createJsonFileStore } from '../../../src/main/profiles'
import { createMemoryVault, type Vault } from '../../../src/main/secrets/vault'
import { channels, type ChannelName } from '../../../src/shared/contract'
import type { WithdrawalDraft } from '../../../src/shared/withdrawal'

const secrets = new Set<string>()
function addSecretsFrom(text: string): void {
  for (const m of text.matchAll(/"(access_token|refresh_token|client_secret)"\s*:\s*"([^"]+)"/g)) {
    if (m[2]) secrets.add(m[2])
  }
}
diagnosticsChannel.channel('undici:request:create').subscribe((msg) => {
  const { request } = msg as { request: { headers: unknown; body: unknown } }
  const headers = Array.isArray(request.headers)
    ? (request.headers as unknown[]).map(String)
    : [String(request.headers)]
  for (const h of headers) {
    const bearer = /Bearer\s+(\S+)/i.exec(h)
    if (bearer?.[1]) secrets.add(bearer[1])
  }
  if (typeof request.body === 'string') addSecretsFrom(request.body)
})
diagnosticsChannel.channel('undici:request:bodyChunkReceived').subscribe((msg) => {
  addSecretsFrom((msg as { chunk: Buffer }).chunk.toString('utf8'))
})

let dataDir: string
let ctx: AppContext
let vault: Vault
const payloads: Array<{ where: string; json: string }> = []
const driven = new Set<string>()
/** What the fake folder dialog answers next. */
const dialogAnswers: string[] = []

async function call(
  channel: ChannelName,
  input?: unknown,
): Promise<{ ok: boolean; data?: unknown; error?: unknown }> {
  driven.add(channel)
  const r = await ctx.router.handle(channel, input)
  payloads.push({ where: channel, json: JSON.stringify(r) })
  return r as { ok: boolean; data?: unknown; error?: unknown }
}

const draft = (cents: number): WithdrawalDraft => ({
  pixKey: 'fulano@example.com',
  taxNumber: '52998224725',
  amount: { kind: 'payout', cents },
  refundAddress: '',
})

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'no-secrets-'))
  vault = createMemoryVault()
  ctx = await createAppContext({
    dataDir,
    vault,
    store: createJsonFileStore(join(dataDir, 'settings.json')),
    app: { name: 'Tesouraria DePix', version: '0.0.0-test', platform: 'linux' },
    operator: 'tester',
    ports: {
      chooseDirectory: () => Promise.resolve(dialogAnswers.shift() ?? null),
      openExternal: () => Promise.resolve(),
    },
  })
  ctx.onEvent((event, payload) => payloads.push({ where: `event ${event}`, json: JSON.stringify(payload) }))
  secrets.add(ctx.sandbox!.credentials.clientSecret)
})

afterAll(async () => {
  await ctx.close()
  rmSync(dataDir, { recursive: true, force: true })
})

// BIP32 test vector 1's master xprv: a shape only, never funded.
const XPRV_FOR_TEST =
  'xprv9s21ZrQH143K3QTDL4LXw2F7HEK3wJUD2nW2nRk4stbPy6cq3jPPqjiChkVvvNKmPGJxWUtg6LnF5kejMRNNU3TGtRBeJgk33yuGBxrMPHi'

describe('no secret crosses IPC', () => {
  it('drives every channel on the sandbox and on live profiles', async () => {
    const sandbox = ctx.sandbox!
    const refund = (await import('../../../src/main/liquid')).generateLiquidAddress('liquid').address

    await call('app:info')
    await call('settings:get')
    await call('settings:update', { language: 'en' })
    await call('session:get')
    await call('session:signIn')
    await call('allowance:get')
    await call('liquid:check', { address: refund })
    await call('records:publicKey')

    // Sandbox withdrawals through every withdrawal and sandbox channel.
    const quote = await call('withdrawals:quote', { draft: { ...draft(5_000), refundAddress: refund } })
    expect(quote.ok).toBe(true)
    const created = await call('withdrawals:create', {
      draft: { ...draft(5_000), refundAddress: refund },
      intentId: (quote.data as { intent: { id: string } }).intent.id,
    })
    expect(created.ok).toBe(true)
    const localId = (created.data as { localId: string }).localId
    await call('withdrawals:get', { localId })
    await call('withdrawals:list', {})
    await call('withdrawals:markFunded', { localId, txId: 'a'.repeat(64) })
    await call('sandbox:fund', { localId, mode: 'exact' })
    await call('sandbox:settle', { localId, outcome: 'sent' })
    await call('withdrawals:refresh', { localId })
    await call('withdrawals:reconcileRefund', { localId })
    await call('withdrawals:reconciledRefunds', { localIds: [localId] })
    // Issue #14: the receipt channels (the receipt may or may not be fetched yet: both answers are checked).
    await call('receipts:get', { localId })
    await call('receipts:bytes', { localId })
    await call('receipts:save', { localId })
    await call('receipts:print', { localId })
    await call('shell:openExternal', { url: 'https://blockstream.info/liquid/tx/' + 'a'.repeat(64) })
    await call('sandbox:maintenance', { on: true })
    await call('sandbox:maintenance', { on: false })

    sandbox.control.injectFault({ kind: 'timeout_after_create', endpoint: 'withdraw' })
    const quote2 = await call('withdrawals:quote', { draft: { ...draft(7_000), refundAddress: refund } })
    const unknown = await call('withdrawals:create', {
      draft: { ...draft(7_000), refundAddress: refund },
      intentId: (quote2.data as { intent: { id: string } }).intent.id,
    })
    const unknownId = (unknown.data as { localId: string }).localId
    await call('withdrawals:resolveUnknown', { localId: unknownId, resolution: { notCreated: true } })

    // The team channels (issue #16) on this computer's ledger: the status says sqlite, approvals refuse. They are
    // driven on a team profile, with the role's password searched for, in test/main/app/team-desks.test.ts and team-approvals.test.ts.
    const status = await call('team:status')
    expect(status).toMatchObject({ ok: true, data: { engine: 'sqlite' } })
    // The team's settings history (issue #31): empty on this computer's ledger; on a team in
    // test/main/ledger/team/cli/team-ledger-cli.test.ts.
    expect(await call('team:changes')).toEqual({ ok: true, data: [] })
    expect(await call('approvals:list')).toMatchObject({ ok: false, error: { code: 'unsupported' } })
    // Runs waiting for approval on a team: test/main/app/team-run-approvals.test.ts.
    expect(await call('approvals:runs')).toMatchObject({ ok: false, error: { code: 'unsupported' } })
    const quote3 = await call('withdrawals:quote', { draft: { ...draft(9_000), refundAddress: refund } })
    await call('approvals:request', {
      draft: { ...draft(9_000), refundAddress: refund },
      intentId: (quote3.data as { intent: { id: string } }).intent.id,
    })
    const noApproval = '00000000-0000-4000-8000-000000000000'
    await call('approvals:approve', { id: noApproval })
    await call('approvals:reject', { id: noApproval, note: 'não' })
    await call('approvals:send', { id: noApproval })

    // Exports and review, through the (fake) folder dialog's one-use tokens.
    const exportDir = join(dataDir, 'exports')
    mkdirSync(exportDir)
    dialogAnswers.push(exportDir)
    const toExport = await call('dialog:chooseFolder', { purpose: 'export' })
    const exportToken = (toExport.data as { token: string }).token
    const exported = await call('records:export', {
      folder: exportToken,
      formats: ['csv', 'json', 'html'],
      includeReceipts: true,
    })
    expect(exported.ok).toBe(true)
    const manifestPath = (exported.data as { manifestPath: string }).manifestPath
    dialogAnswers.push(join(manifestPath, '..'))
    const toReview = await call('dialog:chooseFolder', { purpose: 'review' })
    await call('review:open', { folder: (toReview.data as { token: string }).token })
    await call('review:checkSigner', { expected: '' })
    await call('review:checkLedger')
    // The same export as the older one (its folder again, through a token of its own).
    dialogAnswers.push(join(manifestPath, '..'))
    const toOlder = await call('dialog:chooseFolder', { purpose: 'review' })
    const compared = await call('review:compareOlder', { folder: (toOlder.data as { token: string }).token })
    expect(compared.ok).toBe(true)
    await call('review:list', {})
    await call('review:close')
    await call('ledger:integrity')
    const backups = await call('ledger:backups')
    expect(backups.ok).toBe(true)
    await call('ledger:restore', { name: 'ledger-20250101T000000000Z-manual.sqlite', confirm: true })

    // The payee book, its CSV, and the profile's default refund address (issue #14).
    const payee = await call('payees:create', {
      name: 'Fulano de Tal',
      taxNumber: '52998224725',
      pixKeys: [{ key: 'fulano@example.com' }],
    })
    expect(payee.ok).toBe(true)
    const payeeId = (payee.data as { id: string }).id
    await call('payees:list', { text: 'fulano' })
    await call('payees:get', { id: payeeId })
    await call('payees:update', {
      id: payeeId,
      payee: { name: 'Fulano', taxNumber: '52998224725', pixKeys: [{ key: 'fulano@example.com' }] },
    })
    const bookDir = join(dataDir, 'book')
    mkdirSync(bookDir)
    dialogAnswers.push(bookDir)
    const toBook = await call('dialog:chooseFolder', { purpose: 'export' })
    await call('payees:export', { folder: (toBook.data as { token: string }).token })
    await call('payees:import')
    await call('payees:remove', { id: payeeId })
    await call('profiles:setDefaultRefundAddress', { address: refund })

    // A payment run (issue #15): import, review, approval by the total, one wave, its sheet, funding, controls.
    const runCsv = [
      'Favorecido;Chave Pix;CPF/CNPJ;Valor do Pix (R$)',
      'Beltrano;beltrano@example.com;52998224725;25,00',
    ]
    const imported = await call('runs:import', {
      name: 'lote.csv',
      contentBase64: Buffer.from(runCsv.join('\r\n')).toString('base64'),
    })
    expect(imported.ok).toBe(true)
    const runId = (imported.data as { runId: string }).runId
    await call('runs:list')
    const runDetail = await call('runs:get', { runId })
    await call('runs:decide', { runId, idx: 0, decision: 'keep' })
    const payoutCents = (runDetail.data as { summary: { payoutCents: number } }).summary.payoutCents
    expect((await call('runs:approve', { runId, confirmPayoutCents: payoutCents })).ok).toBe(true)
    expect((await call('runs:startWave', { runId })).ok).toBe(true)
    await call('runs:sheet', { runId, wave: 1 })
    const sheetDir = join(dataDir, 'sheet')
    mkdirSync(sheetDir)
    dialogAnswers.push(sheetDir, sheetDir)
    await call('runs:saveSheet', {
      runId,
      wave: 1,
      folder: ((await call('dialog:chooseFolder', { purpose: 'export' })).data as { token: string }).token,
    })
    await call('runs:saveTemplate', {
      folder: ((await call('dialog:chooseFolder', { purpose: 'export' })).data as { token: string }).token,
    })
    await call('runs:sandboxFundWave', { runId, wave: 1 })
    await call('runs:markWaveFunded', { runId, wave: 1, txId: 'b'.repeat(64) })
    // Issue #25: a row not created may be retried, an unknown one resolved (refused here: every row was created).
    await call('runs:retryRow', { runId, idx: 0 })
    await call('runs:resolveRow', { runId, idx: 0, resolution: { notCreated: true } })
    await call('runs:pause', { runId })
    await call('runs:resume', { runId })
    await call('runs:cancel', { runId })

    // Top-ups (issue #17): buy, pay its QR, MED, an outside deposit found by reconciliation and imported, limits.
    const depositDraft = { amountCents: 50_000, depixAddress: refund, endUserTaxNumber: '52998224725' }
    await call('deposits:defaults')
    const depositQuote = await call('deposits:quote', { draft: depositDraft })
    expect(depositQuote.ok).toBe(true)
    const deposit = await call('deposits:create', {
      draft: depositDraft,
      intentId: (depositQuote.data as { intent: { id: string } }).intent.id,
    })
    expect(deposit.ok).toBe(true)
    const depositId = (deposit.data as { localId: string }).localId
    // A top-up's four-eyes request (issue #24) exists on a team only; here it is refused, and says nothing secret.
    const depositQuote2 = await call('deposits:quote', { draft: { ...depositDraft, amountCents: 60_000 } })
    expect(
      await call('approvals:requestTopUp', {
        draft: { ...depositDraft, amountCents: 60_000 },
        intentId: (depositQuote2.data as { intent: { id: string } }).intent.id,
      }),
    ).toMatchObject({ ok: false })
    await call('deposits:get', { localId: depositId })
    await call('deposits:list', {})
    await call('sandbox:payDeposit', { localId: depositId })
    await call('deposits:refresh', { localId: depositId })
    await call('sandbox:fileMed', { localId: depositId })
    const outside = await call('sandbox:outsideDeposit', { amountCents: 30_000, pay: true })
    expect(outside.ok).toBe(true)
    await call('deposits:reconcile', { days: 1 })
    await call('deposits:reconciliation')
    await call('deposits:import', { qrId: (outside.data as { qrId: string }).qrId })
    // Refused (the deposit is not in outcome_unknown): the error must carry no secret either.
    await call('deposits:resolveUnknown', { localId: depositId, resolution: { notCreated: true } })
    await call('deposits:userInfo', { euid: 'EU-no-secrets' })
    await call('deposits:reviewList', {})

    // Issue #16: the team ledger connection of the active profile, its role password typed in and tested on a
    // port where nothing listens (the channels' answers and events are what is checked here; the verdicts against
    // a real server are in team-connection.test.ts).
    const teamPassword = 'team-role-password-0123456789'
    secrets.add(teamPassword)
    const teamSettings = {
      host: '127.0.0.1',
      port: 1,
      database: 'depix_team',
      role: 'ana',
      tls: 'disable',
      caPem: null,
    }
    await call('team:get')
    await call('team:test', { settings: teamSettings, password: teamPassword })
    expect((await call('team:save', { settings: teamSettings, password: teamPassword })).ok).toBe(true)
    await call('team:test')
    await call('team:get')
    expect((await call('team:forget')).ok).toBe(true)

    // A live profile with client credentials, and one with a legacy token.
    const live = sandbox.control.createCredential({ label: 'live-profile' })
    // Issue #27: the Sandbox treasury wallet's views (scanned over the sandbox chain) carry no key.
    await call('wallet:get', {})
    await call('wallet:scan', {})
    // Issue #28: paying from it — refusals (the record is funded; ids unknown) carry no key or mnemonic either.
    secrets.add(SANDBOX_TREASURY_MNEMONIC)
    await call('walletPay:list', {})
    await call('walletPay:build', { selected: [{ localId }] })
    for (const c of [
      'walletPay:export',
      'walletPay:savePset',
      'walletPay:loadSigned',
      'walletPay:qr',
      'walletPay:signSandbox',
      'walletPay:broadcast',
      'walletPay:cancel',
    ] as const)
      await call(c, { id: 'no-such-attempt' })
    await call('walletPay:import', { id: 'no-such-attempt', pset: 'cHNldP8=' })
    // The Jade's PIN-server relay refuses any other host before posting anything.
    await call('walletPay:jadePinServer', { url: 'https://evil.example/start_handshake', body: '{}' })
    secrets.add(/slip77\(([0-9a-f]{64})\)/.exec(sandboxTreasury().descriptor)?.[1] as string)
    secrets.add(/tpub[1-9A-HJ-NP-Za-km-z]+/.exec(sandboxTreasury().descriptor)?.[0] as string)
    secrets.add(live.clientSecret)
    const added = await call('profiles:addLive', {
      name: 'Live test',
      baseUrl: sandbox.baseUrl,
      network: 'liquid',
      auth: { kind: 'client_credentials', clientId: live.clientId, clientSecret: live.clientSecret },
    })
    expect(added.ok).toBe(true)
    const liveId = (added.data as { id: string }).id
    await call('profiles:select', { id: liveId })
    await call('session:signIn')
    await call('profiles:list')
    await call('sandbox:fund', { localId, mode: 'exact' })
    const rotated = sandbox.control.createCredential({ label: 'rotated' })
    secrets.add(rotated.clientSecret)
    await call('profiles:setCredentials', {
      id: liveId,
      credentials: {
        kind: 'client_credentials',
        clientId: rotated.clientId,
        clientSecret: rotated.clientSecret,
      },
    })
    await call('profiles:update', { id: liveId, patch: { name: 'Live renamed' } })
    // A live profile's descriptor goes in, never out; a refused one (holding a private key) is not echoed either.
    const descriptor = singlesigMainnet(31)
    secrets.add(/slip77\(([0-9a-f]{64})\)/.exec(descriptor)?.[1] as string)
    secrets.add(/xpub[1-9A-HJ-NP-Za-km-z]+/.exec(descriptor)?.[0] as string)
    const withPrivate = descriptor.replace(/xpub[1-9A-HJ-NP-Za-km-z]+/, XPRV_FOR_TEST)
    secrets.add(XPRV_FOR_TEST)
    expect(await call('wallet:setDescriptor', { descriptor: withPrivate })).toMatchObject({
      ok: false,
      error: { code: 'invalid_descriptor', fields: { descriptor: 'private_key' } },
    })
    expect(await call('wallet:setDescriptor', { descriptor })).toMatchObject({
      ok: true,
      data: { state: 'ready' },
    })
    await call('wallet:get', {})
    await call('wallet:proposeAddress', {})
    await call('wallet:label', { txid: '0'.repeat(64), label: 'x' })
    await call('wallet:checkAddress', { address: sandboxTreasury().firstAddress })
    await call('wallet:clear', {})
    await call('session:signOut')

    const legacy = sandbox.control.mintLegacyToken({ expiresInSeconds: 3600 })
    secrets.add(legacy)
    const legacyProfile = await call('profiles:addLive', {
      name: 'Legacy test',
      baseUrl: sandbox.baseUrl,
      network: 'liquid',
      auth: { kind: 'legacy_token', token: legacy },
    })
    const legacyId = (legacyProfile.data as { id: string }).id
    await call('profiles:select', { id: legacyId })
    await call('session:signIn')
    await call('session:get')
    await call('profiles:remove', { id: legacyId })
    await call('profiles:remove', { id: liveId })

    expect([...driven].sort()).toEqual(Object.keys(channels).sort())
  })

  it('finds none of the secrets in any result or event', () => {
    if (process.env['SHOW_IPC']) for (const p of payloads) console.log(p.where, p.json.slice(0, 160))
    const key = vault.get('export:signingKey')
    expect(key).toBeTruthy()
    const privateKeyPem = (JSON.parse(key!) as { privateKeyPem: string }).privateKeyPem
    const privateKeyBody = privateKeyPem.split('\n').filter((l) => l && !l.startsWith('-----'))
    const needles = [...secrets, ...privateKeyBody]
    // The capture saw real tokens, and the scan can see a leak.
    expect([...secrets].some((s) => s.startsWith('eyJ'))).toBe(true)
    expect(payloads.length).toBeGreaterThan(40)
    expect(payloads.some((p) => p.where.startsWith('event '))).toBe(true)
    const leaks = payloads.flatMap((p) => needles.filter((n) => p.json.includes(n)).map(() => p.where))
    expect(leaks).toEqual([])
  })
})
