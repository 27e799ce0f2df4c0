/** The engine's error message and stack-frame format (V8, SpiderMonkey and JavaScriptCore differ). */
export function errorStack(): { message: string; frame: string } {
  try {
    ;(null as unknown as { probe(): void }).probe()
  } catch (error) {
    const stack = error instanceof Error ? (error.stack ?? '') : ''
    const frame = stack.split('\n').find((line) => /\d+:\d+/.test(line)) ?? ''
    return {
      message: error instanceof Error ? error.message : String(error),
      frame: frame.trim().startsWith('at ') ? 'v8' : frame.includes('@') ? 'gecko-webkit' : 'other',
    }
  }
  return { message: '', frame: 'none' }
}
