/**
 * The console charts' colours, one per measure, apart enough to tell at a glance (and each at
 * least 3:1 against the chart's white): identifications indigo, visitors blue, bots magenta, and
 * the sign-up outcomes green, amber and dark red.
 */
export const chartColors = {
  identifications: '#4338ca',
  visitors: '#0086c9',
  bots: '#c11574',
  allow: '#067647',
  challenge: '#dc6803',
  deny: '#912018',
} as const
