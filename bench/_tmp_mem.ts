import { openLedger } from '../src/main/ledger/sqlite/index'
const file = process.argv[2]!
const l = openLedger(file)
const mb = (b: number) => Math.round(b / 2 ** 20)
const iv = setInterval(() => { const m = process.memoryUsage(); console.log('rss', mb(m.rss), 'heap', mb(m.heapUsed), '/', mb(m.heapTotal), 'ext', mb(m.external), 'ab', mb(m.arrayBuffers)) }, 1000)
void (async () => {
  const s = l.snapshot(); const v = await s.verify(); s.close(); clearInterval(iv); console.log(v, 'maxrss', Math.round(process.resourceUsage().maxRSS / 1024))
  l.close()
})()
