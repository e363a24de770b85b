/**
 * Every translation namespace. One file per area so pages can grow their texts without touching each other;
 * a unit test checks that pt-BR and en have the same keys in every namespace.
 */
import { approvals } from './approvals'
import { common } from './common'
import { deposits } from './deposits'
import { detail } from './detail'
import { errors } from './errors'
import { funding } from './funding'
import { layout } from './layout'
import { list } from './list'
import { payees } from './payees'
import { receipts } from './receipts'
import { records } from './records'
import { review } from './review'
import { runs } from './runs'
import { sandbox } from './sandbox'
import { settings } from './settings'
import { status } from './status'
import { teamLedger } from './team-ledger'
import { wallet } from './wallet'
import { walletPay } from './wallet-pay'
import { withdrawal } from './withdrawal'

export const namespaces = {
  common,
  errors,
  withdrawal,
  funding,
  sandbox,
  list,
  detail,
  status,
  review,
  settings,
  records,
  layout,
  payees,
  receipts,
  runs,
  deposits,
  teamLedger,
  approvals,
  wallet,
  walletPay,
} as const
export type Namespace = keyof typeof namespaces
