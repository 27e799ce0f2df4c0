export function touchSupport() {
  let touchEvent = true
  try {
    document.createEvent('TouchEvent')
  } catch {
    touchEvent = false
  }
  return { maxTouchPoints: navigator.maxTouchPoints ?? 0, touchEvent, touchStart: 'ontouchstart' in window }
}
