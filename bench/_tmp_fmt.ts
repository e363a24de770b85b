import { openLedger } from '../src/main/ledger/sqlite/index'
import { exportRecords, generateSigningKeyPair } from '../src/main/records/index'
import fs from 'node:fs'
const formats = process.argv[2]!.split(',') as never
const l = openLedger('/tmp/w30write/l100k.sqlite')
const signer = generateSigningKeyPair()
void (async () => {
  const s = l.snapshot(); await s.verify(); s.close()
  const c = process.cpuUsage(); const t = performance.now()
  const r = await exportRecords(l, { dir: '/tmp/w30write/out2', formats, signer, appVersion: 'b', profile: { name: 'P', network: 'liquid' } })
  const u = process.cpuUsage(c)
  console.log(process.argv[2], Math.round(performance.now() - t), 'cpu', Math.round((u.user + u.system) / 1000), 'rss', Math.round(process.resourceUsage().maxRSS / 1024))
  fs.rmSync(r.folder, { recursive: true })
  l.close()
})()
