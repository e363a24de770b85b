/**
 * The documentation a newcomer uses (issue #29), checked against the repository itself:
 *
 * - the README stays short (≤ 5 KB) and gives the two commands of a fresh machine, which must exist in package.json;
 * - every `npm run X` the README and the docs name is a script of package.json;
 * - every relative link in the README and docs/ leads to a file (and, for a `#fragment` into Markdown, to a heading
 *   or an explicit anchor of that file);
 * - code, tests and docs cite only documents in the repository: no "DESIGN §", no "spec §", no path to the reference
 *   material outside it; every `docs/….md` and `docs/API-CONTRACT.md#anchor` a source file names exists;
 * - docs/adr holds 15–25 numbered decisions, each with Status, Context, Decision and Consequences, all in its index.
 *
 * docs/history/ is the closed work log: it may cite what it cited then, but its own links must still resolve.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'

const REPO = resolve(__dirname, '../..')
const SELF = relative(REPO, __filename)

function walk(dir: string, keep: (path: string) => boolean): string[] {
  const out: string[] = []
  for (const entry of readdirSync(join(REPO, dir), { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules' && !entry.name.startsWith('.')) out.push(...walk(path, keep))
    } else if (keep(path)) out.push(path)
  }
  return out
}

const read = (path: string): string => readFileSync(join(REPO, path), 'utf8')
const markdownFiles = ['README.md', ...walk('docs', (p) => p.endsWith('.md'))]
const sourceFiles = ['src', 'test', 'scripts', 'bench'].flatMap((d) =>
  walk(d, (p) => /\.(ts|tsx|mts|cts|js|mjs|cjs|sql)$/.test(p)),
)

/** Markdown without fenced code blocks and inline code, where a link is only an example. */
function prose(md: string): string {
  return md.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`\n]*`/g, '')
}

/** GitHub's heading anchor: lower case, links reduced to their text, punctuation dropped, spaces to hyphens. */
export function headingSlug(heading: string): string {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-')
}

function anchorsOf(md: string): Set<string> {
  const anchors = new Set<string>()
  const seen = new Map<string, number>()
  for (const m of prose(md).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = headingSlug(m[1]!)
    const n = seen.get(base) ?? 0
    seen.set(base, n + 1)
    anchors.add(n === 0 ? base : `${base}-${n}`)
  }
  for (const m of md.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(m[1]!)
  return anchors
}

export function linksOf(md: string): string[] {
  return [...prose(md).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]!)
}

/** Problems with one relative link written in `from` (a path relative to the repository). */
function brokenLink(from: string, link: string): string | null {
  if (/^[a-z][a-z0-9+.-]*:/i.test(link)) return null // https:, mailto:
  const [pathPart, fragment] = link.split('#', 2) as [string, string | undefined]
  const target = pathPart === '' ? from : relative(REPO, resolve(REPO, dirname(from), decodeURI(pathPart)))
  if (target.startsWith('..')) return `${from}: ${link} leaves the repository`
  if (!existsSync(join(REPO, target))) return `${from}: ${link} → ${target} does not exist`
  if (fragment !== undefined && target.endsWith('.md') && statSync(join(REPO, target)).isFile()) {
    if (!anchorsOf(read(target)).has(decodeURIComponent(fragment)))
      return `${from}: ${link} → no anchor #${fragment}`
  }
  return null
}

const scripts = z
  .object({ scripts: z.record(z.string(), z.string()) })
  .parse(JSON.parse(read('package.json'))).scripts

describe('README', () => {
  const readme = read('README.md')

  it('is at most 5 KB', () => {
    expect(Buffer.byteLength(readme, 'utf8')).toBeLessThanOrEqual(5 * 1024)
  })

  it('gives one command that runs the app and one that runs the tests, both scripts of package.json', () => {
    const blocks = [...readme.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1]!.trim())
    expect(blocks).toContain('npm ci && npm start')
    expect(blocks).toContain('npm ci && npm test')
    expect(scripts.start).toBeDefined()
    expect(scripts.test).toBeDefined()
    expect(existsSync(join(REPO, '.ci/run'))).toBe(true)
  })

  it('points a newcomer at the user guide, the team guide, development, architecture and the ADRs', () => {
    const targets = linksOf(readme)
    for (const doc of [
      'docs/USER-GUIDE.md',
      'docs/TEAM-LEDGER.md',
      'docs/DEVELOPMENT.md',
      'docs/ARCHITECTURE.md',
      'docs/adr/README.md',
      'docs/API-CONTRACT.md',
    ]) {
      expect(targets).toContain(doc)
    }
  })
})

describe('commands and links in the docs', () => {
  it('names only npm scripts that exist', () => {
    const missing: string[] = []
    for (const file of markdownFiles.filter((f) => !f.startsWith('docs/history/'))) {
      for (const m of read(file).matchAll(/\bnpm run ([a-z][\w:-]*)/g)) {
        if (scripts[m[1]!] === undefined) missing.push(`${file}: npm run ${m[1]}`)
      }
    }
    expect(missing).toEqual([])
  })

  it('has no relative link that leads nowhere', () => {
    const broken = markdownFiles.flatMap((file) =>
      linksOf(read(file))
        .map((link) => brokenLink(file, link))
        .filter((p): p is string => p !== null),
    )
    expect(broken).toEqual([])
  })

  it('would catch a broken link or anchor (the checker itself)', () => {
    expect(brokenLink('README.md', 'docs/NOPE.md')).toMatch(/does not exist/)
    expect(brokenLink('README.md', 'docs/API-CONTRACT.md#s99')).toMatch(/no anchor/)
    expect(brokenLink('README.md', 'docs/API-CONTRACT.md#s4-6')).toBeNull()
    expect(brokenLink('docs/DEVELOPMENT.md', '../../outside.md')).toMatch(/leaves the repository/)
    expect(headingSlug('The `team-ledger` tool')).toBe('the-team-ledger-tool')
    expect(headingSlug('## Configurações'.slice(3))).toBe('configurações')
  })
})

describe('citations', () => {
  // Documents that were never part of the repository: the reference design notes and the raw API specification.
  const FOREIGN = [
    { what: 'DESIGN §', re: /DESIGN\s*§/ },
    { what: 'spec §', re: /\bspec\s*§/i },
    { what: 'DESIGN.md', re: /\bDESIGN\.md\b/ },
    { what: 'depix-api.md', re: /depix-api\.md/ },
    {
      what: 'the reference folder outside the repo',
      re: /(?:\.\.\/)+shared\/(?:spec|fixtures|DESIGN)|\/work\/shared\b/,
    },
  ]

  it('cites no document outside the repository (src, test, scripts, bench, README, docs)', () => {
    const files = [...sourceFiles, ...markdownFiles].filter(
      (f) => f !== SELF && !f.startsWith('docs/history/'),
    )
    const found: string[] = []
    for (const file of files) {
      read(file)
        .split('\n')
        .forEach((line, i) => {
          for (const { what, re } of FOREIGN) if (re.test(line)) found.push(`${file}:${i + 1}: ${what}`)
        })
    }
    expect(found).toEqual([])
  })

  it('every docs/….md and docs/API-CONTRACT.md#anchor a source file cites exists', () => {
    const contractAnchors = anchorsOf(read('docs/API-CONTRACT.md'))
    const broken: string[] = []
    for (const file of sourceFiles.filter((f) => f !== SELF)) {
      for (const m of read(file).matchAll(/\bdocs\/([\w./-]*\w\.md)(#[\w.-]*\w)?/g)) {
        const doc = `docs/${m[1]}`
        if (!existsSync(join(REPO, doc))) broken.push(`${file}: ${doc}`)
        else if (
          m[2] !== undefined &&
          doc === 'docs/API-CONTRACT.md' &&
          !contractAnchors.has(m[2].slice(1))
        ) {
          broken.push(`${file}: ${doc}${m[2]}`)
        }
      }
    }
    expect(broken).toEqual([])
  })
})

describe('ADRs', () => {
  const numbered = readdirSync(join(REPO, 'docs/adr'))
    .filter((f) => /^\d{4}-[a-z0-9-]+\.md$/.test(f))
    .sort()

  it('holds 15 to 25 numbered decisions, numbered from 0001 without gaps', () => {
    expect(numbered.length).toBeGreaterThanOrEqual(15)
    expect(numbered.length).toBeLessThanOrEqual(25)
    expect(numbered.map((f) => f.slice(0, 4))).toEqual(numbered.map((_, i) => String(i + 1).padStart(4, '0')))
  })

  it.each(numbered)('%s has a title with its number, Status, Context, Decision and Consequences', (file) => {
    const text = read(`docs/adr/${file}`)
    expect(text.split('\n')[0]).toMatch(new RegExp(`^# ${file.slice(0, 4)}\\. \\S`))
    expect(text).toMatch(/^- \*\*Status:\*\* (Accepted|Superseded by \d{4}|Deprecated)\b/m)
    for (const section of ['Context', 'Decision', 'Consequences']) {
      expect(text).toMatch(new RegExp(`^## ${section}\\n`, 'm'))
    }
  })

  it('lists every decision in docs/adr/README.md', () => {
    const index = linksOf(read('docs/adr/README.md'))
    expect(numbered.filter((f) => !index.includes(f))).toEqual([])
  })
})
