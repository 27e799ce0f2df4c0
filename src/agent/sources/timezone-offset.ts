/** The standard-time offset (minutes), the same all year round unlike today's offset. */
export function timezoneOffset(): number {
  const year = new Date().getFullYear()
  return Math.max(new Date(year, 0, 1).getTimezoneOffset(), new Date(year, 6, 1).getTimezoneOffset())
}
