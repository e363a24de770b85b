/** A form field with its label, hint and error wired for assistive technology (the settings forms' Field). */
export { Field as FormField, FieldMessage, fieldAria, type FieldAria } from '../settings/Field'
