/**
 * The English problem lines of a review check, for "Detalhes técnicos" only (marked `lang="en"` so the pt-BR
 * language check skips them). Nothing when there are none.
 */
export function ProblemLines(p: { problems: readonly string[]; testId: string }): React.JSX.Element | null {
  if (p.problems.length === 0) return null
  return (
    <ul lang="en" data-testid={p.testId}>
      {p.problems.map((line, i) => (
        <li key={i}>
          <code>{line}</code>
        </li>
      ))}
    </ul>
  )
}
