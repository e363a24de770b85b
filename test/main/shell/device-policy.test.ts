import { describe, expect, it } from 'vitest'
import {
  chosenPortId,
  devicePermissionAllowed,
  isJadeDevice,
  permissionAllowed,
  serialChooser,
  usbId,
  type ListedPort,
} from '../../../src/main/shell/device-policy'
import { JADE_USB_IDS } from '../../../src/shared/jade'

const DEV = 'http://localhost:5173'
// Electron lists ports with decimal string ids: 4292/60000 is 0x10c4/0xea60 (CP210x, the classic Jade).
const JADE: ListedPort = {
  portId: 'p1',
  portName: 'ttyUSB0',
  displayName: 'CP2104',
  vendorId: '4292',
  productId: '60000',
}
const JADE_S3: ListedPort = { portId: 'p2', portName: 'ttyACM0', vendorId: '12346', productId: '4097' }
const ARDUINO: ListedPort = { portId: 'p3', portName: 'ttyACM1', vendorId: '9025', productId: '67' }

describe('Jade USB ids', () => {
  it("are LWK's six lwk_jade::JADE_DEVICE_IDS", () => {
    expect(JADE_USB_IDS.map((i) => [i.vendorId.toString(16), i.productId.toString(16)])).toEqual([
      ['10c4', 'ea60'],
      ['1a86', '55d4'],
      ['403', '6001'],
      ['1a86', '7523'],
      ['303a', '4001'],
      ['303a', '1001'],
    ])
  })

  it('usbId reads a number or its decimal string, nothing else', () => {
    expect(usbId(4292)).toBe(4292)
    expect(usbId('4292')).toBe(4292)
    for (const bad of [
      '0x10c4',
      '10c4',
      '-1',
      '65536',
      '',
      ' 4292',
      4292.5,
      -1,
      70000,
      null,
      undefined,
      {},
    ]) {
      expect(usbId(bad)).toBeNull()
    }
  })

  it('a Jade is matched on vendor AND product; other devices, swapped or partial ids are not', () => {
    expect(isJadeDevice(JADE)).toBe(true)
    expect(isJadeDevice(JADE_S3)).toBe(true)
    expect(isJadeDevice({ vendorId: 0x1a86, productId: 0x7523 })).toBe(true)
    expect(isJadeDevice(ARDUINO)).toBe(false)
    // CP210x vendor with another product (any CP210x adapter is not a Jade), and the ids crossed between pairs.
    expect(isJadeDevice({ vendorId: 0x10c4, productId: 0xea61 })).toBe(false)
    expect(isJadeDevice({ vendorId: 0x10c4, productId: 0x55d4 })).toBe(false)
    expect(isJadeDevice({ vendorId: '4292' })).toBe(false)
    expect(isJadeDevice({})).toBe(false)
    expect(isJadeDevice(null)).toBe(false)
  })
})

describe('permissions', () => {
  it('serial only for our own renderer (app://treasury, the dev server when one runs)', () => {
    expect(permissionAllowed('serial', 'app://treasury')).toBe(true)
    expect(permissionAllowed('serial', 'app://treasury/index.html')).toBe(true)
    expect(permissionAllowed('serial', 'http://localhost:5173', DEV)).toBe(true)
    for (const hostile of [
      'https://evil.example',
      'app://evil',
      'app://treasury.evil.example',
      'http://localhost:5173', // no dev server running: a localhost page is not ours
      'file:///etc/passwd',
      'null',
      '',
      undefined,
    ]) {
      expect(permissionAllowed('serial', hostile)).toBe(false)
    }
    expect(permissionAllowed('serial', 'http://localhost:5174', DEV)).toBe(false)
  })

  it('every other permission stays denied, even for our own page; copy buttons stay allowed', () => {
    for (const p of [
      'usb',
      'hid',
      'media',
      'geolocation',
      'notifications',
      'clipboard-read',
      'openExternal',
      'unknown',
    ]) {
      expect(permissionAllowed(p, 'app://treasury')).toBe(false)
    }
    expect(permissionAllowed('clipboard-sanitized-write', 'app://treasury')).toBe(true)
  })

  it('device permission: a Jade serial port for our own renderer only', () => {
    const jade = { vendorId: 0x10c4, productId: 0xea60 }
    expect(devicePermissionAllowed({ deviceType: 'serial', origin: 'app://treasury', device: jade })).toBe(
      true,
    )
    expect(
      devicePermissionAllowed({ deviceType: 'serial', origin: 'https://evil.example', device: jade }),
    ).toBe(false)
    expect(
      devicePermissionAllowed({
        deviceType: 'serial',
        origin: 'app://treasury',
        device: { vendorId: 9025, productId: 67 },
      }),
    ).toBe(false)
    // The same ids as a HID or USB device: not a serial port, refused.
    expect(devicePermissionAllowed({ deviceType: 'usb', origin: 'app://treasury', device: jade })).toBe(false)
    expect(devicePermissionAllowed({ deviceType: 'hid', origin: 'app://treasury', device: jade })).toBe(false)
  })
})

describe('the serial-port chooser', () => {
  it('lists only the Jade ports, then Cancelar; the answer is the chosen port or none', () => {
    const c = serialChooser([ARDUINO, JADE, JADE_S3], 'pt-BR')
    expect(c).not.toBeNull()
    expect(c?.buttons).toEqual(['CP2104 (ttyUSB0)', 'Jade (ttyACM0)', 'Cancelar'])
    expect(c?.cancelId).toBe(2)
    expect(c?.message).toBe('Escolha a Jade que vai assinar a transação.')
    expect(chosenPortId(c, 0)).toBe('p1')
    expect(chosenPortId(c, 1)).toBe('p2')
    expect(chosenPortId(c, 2)).toBe('') // Cancelar
    for (const r of [-1, 3, 1.5, Number.NaN]) expect(chosenPortId(c, r)).toBe('')
  })

  it('in English when the app is in English', () => {
    const c = serialChooser([JADE], 'en')
    expect(c?.buttons).toEqual(['CP2104 (ttyUSB0)', 'Cancel'])
    expect(c?.title).toBe('Sign with the Jade')
  })

  it('no Jade connected: no chooser at all, and no port is ever handed out', () => {
    expect(serialChooser([ARDUINO], 'pt-BR')).toBeNull()
    expect(serialChooser([], 'pt-BR')).toBeNull()
    expect(chosenPortId(null, 0)).toBe('')
  })
})
