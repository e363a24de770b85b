import { openLedger } from '../src/main/ledger/sqlite/index'
import { exportRecords, generateSigningKeyPair } from '../src/main/records/index'
import fs from 'node:fs'
const l = openLedger(process.argv[2]!)
const mb = (b: number) => Math.round(b / 2 ** 20)
let iv: NodeJS.Timeout
void (async () => {
  const s = l.snapshot(); await s.verify(); s.close()
  console.log('after verify maxrss', Math.round(process.resourceUsage().maxRSS / 1024))
  iv = setInterval(() => { const m = process.memoryUsage(); console.log('rss', mb(m.rss), 'heap', mb(m.heapUsed), '/', mb(m.heapTotal), 'ext', mb(m.external), 'ab', mb(m.arrayBuffers)) }, 2000)
  const r = await exportRecords(l, { dir: '/tmp/w30write/out2', formats: ['csv', 'json', 'html'], signer: generateSigningKeyPair(), appVersion: 'b', profile: { name: 'P', network: 'liquid' }, maxFileBytes: Number(process.env.MAXB ?? 2 ** 30) })
  clearInterval(iv); console.log('maxrss', Math.round(process.resourceUsage().maxRSS / 1024))
  fs.rmSync(r.folder, { recursive: true })
  l.close()
})()
