/** Which newer JavaScript and web platform features exist: a bitmap that tracks engine versions. */
export function jsFeatures(): string {
  const g = globalThis as unknown as Record<string, unknown>
  const checks = [
    typeof Array.prototype.findLast === 'function',
    typeof Array.prototype.toSorted === 'function',
    typeof (Object as unknown as Record<string, unknown>).groupBy === 'function',
    typeof (Promise as unknown as Record<string, unknown>).withResolvers === 'function',
    typeof (Set.prototype as unknown as Record<string, unknown>).union === 'function',
    typeof g.Iterator === 'function',
    typeof (RegExp as unknown as Record<string, unknown>).escape === 'function',
    typeof (Math as unknown as Record<string, unknown>).sumPrecise === 'function',
    typeof (Error as unknown as Record<string, unknown>).isError === 'function',
    typeof (Array as unknown as Record<string, unknown>).fromAsync === 'function',
    typeof g.structuredClone === 'function',
    typeof g.Temporal === 'object',
    typeof g.CompressionStream === 'function',
    typeof g.Sanitizer === 'function',
    typeof g.ViewTransition === 'function',
    typeof g.CSSScopeRule === 'function',
    typeof g.Scheduler === 'function',
    typeof g.NavigateEvent === 'function',
    typeof g.TrustedHTML === 'function',
    typeof g.SharedArrayBuffer === 'function',
    typeof g.WebAssembly === 'object',
    typeof g.BarcodeDetector === 'function',
    typeof g.EyeDropper === 'function',
    typeof g.HID === 'function',
  ]
  return checks.map((present) => (present ? '1' : '0')).join('')
}
