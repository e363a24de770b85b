import type { AppInfo } from '../shared/contract'

export function appInfo(o: { name: string; version: string; platform: string; sandbox: boolean }): AppInfo {
  return { name: o.name, version: o.version, platform: o.platform, sandbox: o.sandbox }
}
