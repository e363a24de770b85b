/** Desktop notifications (issue #14): which events (events.ts), their texts (texts.ts), the port and the service. */
export { createNotificationService, type NotificationService } from './service'
export { eventsFor, DEADLINE_WARNING_MS, type NotificationKind } from './events'
export { maskPixKey, notificationText } from './texts'
export type { DesktopNotification, NotifierPort, ShownNotification } from './port'
export {
  approvalNotificationKind,
  approvalNotificationText,
  type ApprovalNotificationKind,
} from './approvals'
