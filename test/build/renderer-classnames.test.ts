/**
 * One design system (issue #26): every class a renderer component names in `className` is defined in the token
 * sheet (src/renderer/src/styles.css). A class the sheet does not define renders as an unstyled raw element (a grey
 * native button where a red "Cancelar lote" was meant), so it fails here.
 *
 * Read with the TypeScript parser: string literals anywhere in a className expression (conditionals, arrays,
 * template literals), except operands of a comparison (`status === 'paid' ? …`). A template part glued to an
 * expression (`badge-${tone}`) is a prefix: some defined class must start with it.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

const ROOT = join(__dirname, '../../src/renderer/src')

export function definedClasses(css: string): Set<string> {
  const out = new Set<string>()
  const noComments = css.replace(/\/\*[\s\S]*?\*\//g, '')
  for (const m of noComments.matchAll(/([^{}]+)\{/g)) {
    for (const c of (m[1] ?? '').matchAll(/\.(-?[A-Za-z_][\w-]*)/g)) out.add(c[1]!)
  }
  return out
}

interface Use {
  name: string
  prefix: boolean
  where: string
}

function tokens(text: string, where: string, gluedStart: boolean, gluedEnd: boolean): Use[] {
  const parts = text.split(/\s+/)
  const out: Use[] = []
  parts.forEach((p, i) => {
    if (p === '') return
    const last = i === parts.length - 1
    // A part touching an interpolation at its end is a prefix (`badge-${x}`); touching it at its start
    // (`${x}-wide`) says nothing checkable on its own.
    if (i === 0 && gluedStart) return
    out.push({ name: p, prefix: last && gluedEnd, where })
  })
  return out
}

export function classNameUses(source: string, file: string): Use[] {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX)
  const uses: Use[] = []
  const where = (n: ts.Node): string => `${file}:${sf.getLineAndCharacterOfPosition(n.getStart()).line + 1}`
  const isComparisonOperand = (n: ts.Node): boolean => {
    const p = n.parent
    if (!p || !ts.isBinaryExpression(p)) return false
    const k = p.operatorToken.kind
    return (
      k === ts.SyntaxKind.EqualsEqualsEqualsToken ||
      k === ts.SyntaxKind.ExclamationEqualsEqualsToken ||
      k === ts.SyntaxKind.EqualsEqualsToken ||
      k === ts.SyntaxKind.ExclamationEqualsToken
    )
  }
  const collect = (n: ts.Node): void => {
    if ((ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n)) && !isComparisonOperand(n)) {
      uses.push(...tokens(n.text, where(n), false, false))
      return
    }
    if (ts.isTemplateExpression(n)) {
      uses.push(...tokens(n.head.text, where(n), false, n.templateSpans.length > 0))
      n.templateSpans.forEach((span, i) => {
        collect(span.expression)
        const last = i === n.templateSpans.length - 1
        uses.push(...tokens(span.literal.text, where(n), true, !last))
      })
      return
    }
    // Arguments of calls inside className (t('…'), helpers) are not class names.
    if (ts.isCallExpression(n)) return
    n.forEachChild(collect)
  }
  const visit = (n: ts.Node): void => {
    if (ts.isJsxAttribute(n) && n.name.getText(sf) === 'className' && n.initializer) collect(n.initializer)
    n.forEachChild(visit)
  }
  visit(sf)
  return uses
}

/** Buttons and tables the design system styles only through a class: a bare one renders as the browser's own. */
const STYLED_BY_CLASS = new Set(['button', 'table'])

export function bareElements(source: string, file: string): string[] {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX)
  const out: string[] = []
  const visit = (n: ts.Node): void => {
    if (ts.isJsxOpeningElement(n) || ts.isJsxSelfClosingElement(n)) {
      const tag = n.tagName.getText(sf)
      const hasClass = n.attributes.properties.some(
        (a) => ts.isJsxAttribute(a) && a.name.getText(sf) === 'className',
      )
      const spreads = n.attributes.properties.some((a) => ts.isJsxSpreadAttribute(a))
      if (STYLED_BY_CLASS.has(tag) && !hasClass && !spreads) {
        out.push(`${file}:${sf.getLineAndCharacterOfPosition(n.getStart()).line + 1}: <${tag}>`)
      }
    }
    n.forEachChild(visit)
  }
  visit(sf)
  return out
}

/** A page title written by hand (`<h2>`) instead of the design system's PageHeader (title, actions, lead). */
export function handWrittenTitles(source: string, file: string): string[] {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX)
  const out: string[] = []
  const visit = (n: ts.Node): void => {
    if ((ts.isJsxOpeningElement(n) || ts.isJsxSelfClosingElement(n)) && n.tagName.getText(sf) === 'h2') {
      out.push(`${file}:${sf.getLineAndCharacterOfPosition(n.getStart()).line + 1}: <h2>`)
    }
    n.forEachChild(visit)
  }
  visit(sf)
  return out
}

function undefinedUses(uses: readonly Use[], defined: Set<string>): string[] {
  const all = [...defined]
  return uses
    .filter((u) => (u.prefix ? !all.some((d) => d.startsWith(u.name)) : !defined.has(u.name)))
    .map((u) => `${u.where}: .${u.name}${u.prefix ? '*' : ''}`)
}

function tsxFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? tsxFiles(join(dir, e.name)) : e.name.endsWith('.tsx') ? [join(dir, e.name)] : [],
  )
}

describe('the design system defines every className the renderer uses', () => {
  const defined = definedClasses(readFileSync(join(ROOT, 'styles.css'), 'utf8'))

  it('finds an undefined class, a prefix nothing starts with, and ignores compared strings and t() keys', () => {
    const sample = `
      const a = <button className="btn secondary" />
      const b = <span className={\`badge-\${tone} nope-\${x}\`} />
      const c = <td className={status === 'paid' ? 'num' : t('list.cell')} />
      const d = <p className={ok ? 'field-hint' : 'not-a-class'} />`
    expect(undefinedUses(classNameUses(sample, 'sample.tsx'), defined)).toEqual([
      'sample.tsx:2: .secondary',
      'sample.tsx:3: .nope-*',
      'sample.tsx:5: .not-a-class',
    ])
  })

  it('finds a bare button or table', () => {
    const sample = `
      const a = <button type="button">x</button>
      const b = <button type="button" className="btn">x</button>
      const c = <table><tbody /></table>`
    expect(bareElements(sample, 'sample.tsx')).toEqual(['sample.tsx:2: <button>', 'sample.tsx:4: <table>'])
  })

  it('has no bare button or table: each is a design-system variant', () => {
    const problems = tsxFiles(ROOT).flatMap((f) => bareElements(readFileSync(f, 'utf8'), relative(ROOT, f)))
    expect(problems).toEqual([])
  })

  it('finds a page title written by hand', () => {
    const sample = `
      const a = <PageHeader title="Hoje" />
      const b = <h2 id="x">Hoje</h2>`
    expect(handWrittenTitles(sample, 'sample.tsx')).toEqual(['sample.tsx:3: <h2>'])
  })

  it('titles every page with the design system’s PageHeader (no hand-written <h2>)', () => {
    const problems = tsxFiles(ROOT)
      .filter((f) => relative(ROOT, f) !== join('components', 'ui', 'PageHeader.tsx'))
      .flatMap((f) => handWrittenTitles(readFileSync(f, 'utf8'), relative(ROOT, f)))
    expect(problems).toEqual([])
  })

  it('has no className without a definition in styles.css', () => {
    const problems = tsxFiles(ROOT).flatMap((f) =>
      undefinedUses(classNameUses(readFileSync(f, 'utf8'), relative(ROOT, f)), defined),
    )
    expect(problems).toEqual([])
  })
})
