import { readFileSync } from 'node:fs'
import { expect, type Page, test } from '@playwright/test'

// A page on a made-up origin, served by Playwright itself (as in agent.spec.ts).
const PAGE = 'http://agent.test/'
const agent = readFileSync('public/agent.js', 'utf8')

async function stealthTraces(page: Page): Promise<unknown> {
  await page.route(PAGE, (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: `<!doctype html><html><body><p>agent</p><script>${agent}</script></body></html>`,
    }),
  )
  await page.goto(PAGE)
  return page.evaluate(
    `Tessera.collect().then((result) => result.components.stealthTraces.value ?? result.components.stealthTraces.error)`,
  )
}

test('finds nothing in an unpatched page, and leaves every prototype as it was', async ({ page }) => {
  expect(await stealthTraces(page)).toEqual([])
  expect(
    await page.evaluate(
      () =>
        Object.getPrototypeOf(Function.prototype.toString) === Function.prototype &&
        Object.getPrototypeOf(HTMLCanvasElement.prototype.toDataURL) === Function.prototype,
    ),
  ).toBe(true)
})

test('finds what a stealth plugin does: Proxy-wrapped natives, overwritten sizes, a fake frame window', async ({
  page,
}) => {
  // The same techniques as puppeteer-extra-plugin-stealth's utils: a Proxy whose toString is native.
  await page.addInitScript(() => {
    const nativeToString = Function.prototype.toString
    Function.prototype.toString = new Proxy(nativeToString, {
      apply: (target, self, args) => Reflect.apply(target, self, args),
    })
    const getParameter = WebGLRenderingContext.prototype.getParameter
    WebGLRenderingContext.prototype.getParameter = new Proxy(getParameter, {
      apply: (target, self, args) =>
        args[0] === 37446 ? 'Intel Iris OpenGL Engine' : Reflect.apply(target, self, args),
    })
    window.outerWidth = window.innerWidth
    // As the plugin's iframe.contentWindow evasion: createElement wrapped, and a frame given a
    // srcdoc answers with a fake window (a Proxy of the top window) before it is attached.
    const createElement = document.createElement
    document.createElement = new Proxy(createElement, {
      apply(target, self, args) {
        const element = Reflect.apply(target, self, args)
        if (String(args[0]).toLowerCase() === 'iframe') {
          Object.defineProperty(element, 'srcdoc', {
            configurable: true,
            set() {
              const fake = new Proxy(window, { get: (target, key) => Reflect.get(target, key) })
              Object.defineProperty(element, 'contentWindow', { get: () => fake })
            },
          })
        }
        return element
      },
    })
  })
  const traces = await stealthTraces(page)
  expect(traces).toEqual(
    expect.arrayContaining([
      'proxy Function.toString',
      'proxy WebGLRenderingContext.getParameter',
      'window.outerWidth value',
      'iframe.contentWindow',
    ]),
  )
  expect(traces).not.toContain('proxy HTMLCanvasElement.toDataURL')
})
