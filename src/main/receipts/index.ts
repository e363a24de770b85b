/** Local copies of payout receipts (issue #14): fetch (fetch.ts), files (files.ts), retries (service.ts). */
export { createReceiptService, type ReceiptService, type ReceiptView } from './service'
export { fetchReceipt, checkReceiptUrl, ReceiptFetchError, RECEIPT_MAX_BYTES } from './fetch'
export { receiptsDir, readReceiptFile, receiptFileName, sha256Hex } from '../ledger/sqlite/receipt-files'
