/**
 * The Blockstream Jade's USB ids (issue #28, "Jade over USB"): the USB-serial chips Jade units ship with, exactly
 * LWK's `lwk_jade::JADE_DEVICE_IDS` (the filter lwk_wasm's `Jade` hands to `navigator.serial.requestPort`) —
 * Silicon Labs CP210x, WCH CH9102/CH340, FTDI, and Espressif's native USB of the newer units. Main allows a serial
 * port only with one of these (src/main/shell/device-policy.ts); the renderer asks for one with them.
 */
export const JADE_USB_IDS: ReadonlyArray<{ readonly vendorId: number; readonly productId: number }> = [
  { vendorId: 0x10c4, productId: 0xea60 },
  { vendorId: 0x1a86, productId: 0x55d4 },
  { vendorId: 0x0403, productId: 0x6001 },
  { vendorId: 0x1a86, productId: 0x7523 },
  { vendorId: 0x303a, productId: 0x4001 },
  { vendorId: 0x303a, productId: 0x1001 },
]
