/**
 * The one fault set of every device (ARCHITECTURE "Devices"): printers, fiscal devices and the
 * transports under them fail with a DeviceError carrying one of these codes, the vendor's own code
 * kept beside it. It lives apart from any protocol so a transport can raise it without importing one.
 */
export const FAULT_CODES = ['OFFLINE', 'TIMEOUT', 'BUSY', 'PAPER_OUT', 'COVER_OPEN', 'FISCAL_MEMORY_FULL', 'REJECTED', 'PROTOCOL'] as const;
export type FaultCode = (typeof FAULT_CODES)[number];

export class DeviceError extends Error {
  constructor(
    readonly code: FaultCode,
    message: string,
    /**
     * True when the device may have acted before failing (a lost reply, a timeout after the data
     * went out). Such a failure is reconciled against the device, never retried blind.
     */
    readonly outcomeUnknown = false,
    readonly vendorCode?: string,
  ) {
    super(message);
    this.name = 'DeviceError';
  }
}
