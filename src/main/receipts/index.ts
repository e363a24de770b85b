/** Payout receipts (issues #14, #16): fetch (fetch.ts), one service over a receipt store (service.ts). */
export { createReceiptService, type ReceiptService, type ReceiptView } from './service'
export { fetchReceipt, checkReceiptUrl, ReceiptFetchError, RECEIPT_MAX_BYTES } from './fetch'
export { receiptsDir, readReceiptFile, receiptFileName, sha256Hex } from '../ledger/sqlite/receipt-files'
