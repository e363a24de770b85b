/**
 * The one button: variants by meaning, never by page. `destructive` is red and is never placed beside the action
 * that moves money (put it at the other end of a toolbar or behind a confirmation).
 */
import type { ButtonHTMLAttributes } from 'react'

export type ButtonVariant = 'primary' | 'secondary' | 'destructive' | 'link'

export function buttonClass(variant: ButtonVariant = 'secondary', small = false): string {
  const v = { primary: 'btn btn-primary', secondary: 'btn', destructive: 'btn btn-danger', link: 'btn-link' }[
    variant
  ]
  return small ? `${v} btn-small` : v
}

export function Button({
  variant = 'secondary',
  small = false,
  type = 'button',
  ...rest
}: ButtonHTMLAttributes<HTMLButtonElement> & {
  variant?: ButtonVariant
  small?: boolean
}): React.JSX.Element {
  return <button type={type} {...rest} className={buttonClass(variant, small)} />
}
