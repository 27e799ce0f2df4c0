/** How Intl formats for this browser: locale, calendar, digits, hour cycle, a sample number. */
export function intlLocale() {
  const date = Intl.DateTimeFormat().resolvedOptions()
  return {
    locale: date.locale,
    calendar: date.calendar,
    numberingSystem: date.numberingSystem,
    hourCycle: new Intl.DateTimeFormat(undefined, { hour: 'numeric' }).resolvedOptions().hourCycle ?? null,
    number: new Intl.NumberFormat().format(1234567.891),
  }
}
