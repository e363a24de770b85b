/**
 * The active profile's default refund address, put into the payment form's empty refund field once (issue #14).
 * Main checked it with the Liquid helper when it was saved; the form checks it again like anything typed.
 */
import { useEffect, useState } from 'react'
import type { UseFormReturn } from 'react-hook-form'
import { call } from '../../ipc'
import type { WithdrawalFormValues } from '../withdrawal-form/form-model'

export function useDefaultRefund(form: UseFormReturn<WithdrawalFormValues>): string | undefined {
  const [address, setAddress] = useState<string | undefined>(undefined)
  useEffect(() => {
    let live = true
    void call('profiles:list').then((r) => {
      if (!live || !r.ok) return
      const active = r.data.profiles.find((p) => p.id === r.data.activeId)
      const value = active?.defaultRefundAddress
      setAddress(value)
      if (value && form.getValues('refundAddress').trim() === '') {
        form.setValue('refundAddress', value, { shouldDirty: false })
      }
    })
    return () => {
      live = false
    }
  }, [form])
  return address
}
