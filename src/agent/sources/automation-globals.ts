const known = [
  '__playwright__binding__',
  '__pwInitScripts',
  '__playwright_evaluation_script__',
  'callPhantom',
  '_phantom',
  'phantom',
  '__nightmare',
  'domAutomation',
  'domAutomationController',
  '_selenium',
  '_Selenium_IDE_Recorder',
  '__webdriver_script_fn',
  '__webdriver_evaluate',
  '__selenium_unwrapped',
  '__fxdriver_unwrapped',
  '__lastWatirAlert',
  '__puppeteer_evaluation_script__',
  'Buffer',
  'emit',
  'spawn',
  'process',
]
const pattern = /^(\$?cdc_|__pw|__playwright|_?selenium|__webdriver|__driver|puppeteer)/i

/** Globals and document properties that automation frameworks leave behind. */
export function automationGlobals(): string[] {
  const scope = window as unknown as Record<string, unknown>
  const found = known.filter((name) => name in scope)
  for (const name of Object.getOwnPropertyNames(window))
    if (pattern.test(name) && !found.includes(name)) found.push(name)
  for (const name of Object.getOwnPropertyNames(document))
    if (pattern.test(name)) found.push(`document.${name}`)
  const attributes = document.documentElement.getAttributeNames()
  for (const name of attributes) if (/selenium|webdriver|driver/i.test(name)) found.push(`html[${name}]`)
  return found
}
