import { expect, type Page } from '@playwright/test'

/**
 * Identifies this browser on the device page (a query appended to its address if given) and returns
 * the visitor and request IDs it shows.
 */
export async function identifyOnDevicePage(page: Page, query = '') {
  await page.goto(`/device-fingerprint${query}`)
  await expect(page.getByTestId('visitor-id')).toHaveText(/^[\w-]{20}$/, { timeout: 15_000 })
  const visitorId = ((await page.getByTestId('visitor-id').textContent()) ?? '').trim()
  const requestId = ((await page.getByTestId('request-id').textContent()) ?? '').trim()
  return { visitorId, requestId }
}
