/**
 * Steps shared by the withdrawal E2E specs: filling the form as a person would (labels, not test ids), and the
 * facts of the active profile (its Liquid network) the assertions depend on.
 */
import AxeBuilder from '@axe-core/playwright'
import { expect, type Page } from '@playwright/test'
import { generateLiquidAddress, type LiquidNetwork } from '../../../src/main/liquid'
import type { TestApp } from '../support/app-fixture'

/** A real CPF (Receita Federal's example) that the sandbox's default end user has. */
export const CPF = '52998224725'
export const CPF_MASKED = '529.982.247-25'

/** The start of a confidential blech32 address on each network. */
export const CONFIDENTIAL_PREFIX: Readonly<Record<LiquidNetwork, string>> = {
  liquid: 'lq1',
  testnet: 'tlq1',
  regtest: 'el1',
}

export function networkOf(app: TestApp): LiquidNetwork {
  return app.ctx.runtime().profile.network
}

/** A real refund address of the profile's network. */
export function refundAddressFor(app: TestApp): string {
  return generateLiquidAddress(networkOf(app)).address
}

/** A real address of a network other than the profile's. */
export function wrongNetworkAddress(app: TestApp): { address: string; network: LiquidNetwork } {
  const network: LiquidNetwork = networkOf(app) === 'testnet' ? 'liquid' : 'testnet'
  return { address: generateLiquidAddress(network).address, network }
}

export interface FormInput {
  pixKey: string
  taxNumber?: string
  euid?: string
  kind?: 'payout' | 'deposit'
  /** Digits as typed into the cents mask: "12345" is R$ 123,45. */
  amountDigits?: string
  refundAddress?: string
}

const KIND_LABEL = { payout: 'BRL a receber', deposit: 'DePix a enviar' } as const

/** Fills the pt-BR form through its labels. */
export async function fillForm(page: Page, f: FormInput): Promise<void> {
  await page.getByLabel('Chave Pix', { exact: true }).fill(f.pixKey)
  if (f.taxNumber !== undefined) await page.getByLabel('CPF ou CNPJ do favorecido').fill(f.taxNumber)
  if (f.euid !== undefined) await page.getByLabel('EUID (identificador do usuário final)').fill(f.euid)
  if (f.kind) await page.getByRole('radio', { name: KIND_LABEL[f.kind] }).check()
  if (f.amountDigits !== undefined) {
    const amount = page.locator('#amountCents')
    await amount.fill('')
    await amount.pressSequentially(f.amountDigits)
  }
  if (f.refundAddress !== undefined)
    await page.getByLabel('Endereço Liquid para devolução').fill(f.refundAddress)
}

export async function expectRefundAccepted(page: Page): Promise<void> {
  await expect(page.getByTestId('refund-check')).toContainText('Endereço válido')
}

/** The request JSON shown on the review step, parsed. */
export async function reviewedRequest(page: Page): Promise<Record<string, unknown>> {
  const text = await page.getByTestId('request-json').textContent()
  return JSON.parse(text ?? '{}') as Record<string, unknown>
}

/** Zero serious or critical axe violations on the current page. */
export async function expectNoSeriousAxeViolations(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze()
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
  expect(
    serious.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => n.target.join(' ')) })),
  ).toEqual([])
}
