import type { ComponentResult } from '@/contracts/identify'

/**
 * The headers a browser would send with these components' identify call: its User-Agent and its
 * languages. A test that stands in for a browser sends them; without them the request is a script's
 * (detect-inconsistency.ts).
 */
export function browserHeaders(components: Record<string, ComponentResult>): Record<string, string> {
  const value = (name: string) => {
    const component = components[name]
    return component && 'value' in component ? component.value : undefined
  }
  const userAgent = value('userAgent')
  const languages = value('languages')
  return {
    ...(typeof userAgent === 'string' && { 'user-agent': userAgent }),
    ...(Array.isArray(languages) && { 'accept-language': languages.map(String).join(',') }),
  }
}
