const flavors = [
  'chrome',
  'safari',
  '__crWeb',
  '__gCrWeb',
  'yandex',
  '__yb',
  '__ybro',
  '__firefox__',
  '__edgeTrackingPreventionStatistics',
  'webkit',
  'oprt',
  'samsungAr',
  'ucweb',
  'UCShellJava',
  'puffinDevice',
]

/** Browser-specific globals that tell forks and embedded browsers apart. */
export function vendorFlavors(): string[] {
  return flavors.filter((name) => typeof (window as unknown as Record<string, unknown>)[name] === 'object')
}
