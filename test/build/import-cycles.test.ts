/**
 * No import circle in src/, type-only imports included. ESLint's import-x/no-cycle (eslint.config.mjs) sees only
 * the imports that survive compilation; a circle closed by `import type` is harmless at run time but still ties
 * two modules into one (the 10-file circle through app/context.ts and its handlers, issue #29). This walks every
 * import TypeScript sees and fails on any strongly connected group of files.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

const repo = resolve(__dirname, '../..')

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return sourceFiles(path)
    return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [path] : []
  })
}

function resolveImport(from: string, spec: string): string | null {
  if (!spec.startsWith('.')) return null
  const base = resolve(dirname(from), spec.replace(/\?.*$/, ''))
  for (const c of [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')]) {
    if (existsSync(c)) return c
  }
  return null
}

/** Every import and re-export TypeScript sees (value or type), as a graph of absolute paths. */
function importGraph(root: string): Map<string, string[]> {
  const graph = new Map<string, string[]>()
  for (const file of sourceFiles(join(root, 'src'))) {
    const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true)
    graph.set(
      file,
      info.importedFiles.map((i) => resolveImport(file, i.fileName)).filter((f): f is string => f !== null),
    )
  }
  return graph
}

/** Tarjan's strongly connected components of more than one file (a file importing itself is not a concern here). */
function circles(graph: Map<string, string[]>): string[][] {
  let next = 0
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const out: string[][] = []
  const visit = (v: string): void => {
    index.set(v, next)
    low.set(v, next)
    next++
    stack.push(v)
    onStack.add(v)
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w)
        low.set(v, Math.min(low.get(v)!, low.get(w)!))
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!))
    }
    if (low.get(v) === index.get(v)) {
      const group: string[] = []
      let w: string
      do {
        w = stack.pop()!
        onStack.delete(w)
        group.push(w)
      } while (w !== v)
      if (group.length > 1) out.push(group)
    }
  }
  for (const v of graph.keys()) if (!index.has(v)) visit(v)
  return out
}

describe('import circles, type-only imports included', () => {
  it('finds a circle closed only by a type import (the check itself works)', () => {
    const a = join(repo, 'src/a.ts')
    const b = join(repo, 'src/b.ts')
    const c = join(repo, 'src/c.ts')
    expect(
      circles(
        new Map([
          [a, [b]],
          [b, [a]],
          [c, [a]],
        ]),
      ).map((g) => g.sort()),
    ).toEqual([[a, b]])
    // The real graph is read: a module known to import another shows the edge.
    const graph = importGraph(repo)
    expect(graph.get(join(repo, 'src/main/app/handlers.ts'))).toContain(join(repo, 'src/main/app/deps.ts'))
  })

  it('has none in src/', () => {
    const found = circles(importGraph(repo)).map((g) =>
      g.map((f) => relative(repo, f).split('\\').join('/')).sort(),
    )
    expect(found).toEqual([])
  })
})
