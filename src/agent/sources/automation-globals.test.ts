import { describe, expect, it } from 'vitest'
import { withMockedGlobals } from '../../../tests/support/browser-globals'
import { collectComponent } from '../../../tests/support/collect-component'
import { automationGlobals } from './automation-globals'

/** A page: a window and a document with these own properties, and an <html> with these attributes. */
function page(
  windowProperties: Record<string, unknown>,
  documentProperties: Record<string, unknown> = {},
  htmlAttributes: string[] = ['lang'],
) {
  const window = { document: {}, location: {}, chrome: {}, ...windowProperties }
  const document = {
    location: {},
    ...documentProperties,
    documentElement: { getAttributeNames: () => htmlAttributes },
  }
  return { window, document }
}

describe('automationGlobals', () => {
  it('is an empty list in an ordinary page', () => {
    expect(withMockedGlobals(page({}), () => automationGlobals())).toEqual([])
  })

  it('names the globals that Playwright, Selenium, PhantomJS and Puppeteer leave behind', () => {
    const automated = page({
      __playwright__binding__: () => undefined,
      __pwInitScripts: {},
      callPhantom: () => undefined,
      _selenium: {},
      __puppeteer_evaluation_script__: '',
    })
    expect(withMockedGlobals(automated, () => automationGlobals())).toEqual([
      '__playwright__binding__',
      '__pwInitScripts',
      'callPhantom',
      '_selenium',
      '__puppeteer_evaluation_script__',
    ])
  })

  it('finds chromedriver’s generated names by their pattern, on window and on document', () => {
    const chromedriver = page(
      { cdc_adoQpoasnfa76pfcZLmcfl_Array: [], $cdc_asdjflasutopfhvcZLmcfl_: {} },
      { $cdc_asdjflasutopfhvcZLmcfl_: {}, __webdriver_script_fn: () => undefined },
    )
    expect(withMockedGlobals(chromedriver, () => automationGlobals())).toEqual([
      'cdc_adoQpoasnfa76pfcZLmcfl_Array',
      '$cdc_asdjflasutopfhvcZLmcfl_',
      'document.$cdc_asdjflasutopfhvcZLmcfl_',
      'document.__webdriver_script_fn',
    ])
  })

  it('names the attributes WebDriver leaves on <html>', () => {
    const marked = page({}, {}, ['lang', 'webdriver', 'selenium-ide-indicator'])
    expect(withMockedGlobals(marked, () => automationGlobals())).toEqual([
      'html[webdriver]',
      'html[selenium-ide-indicator]',
    ])
  })

  it('names Node’s globals where the page runs under Node (jsdom, happy-dom): this very process', () => {
    const node = withMockedGlobals({ window: globalThis, document: page({}).document }, () =>
      automationGlobals(),
    )
    expect(node).toEqual(expect.arrayContaining(['Buffer', 'process']))
  })

  it('fails without a document, and collect records the error', async () => {
    await withMockedGlobals({ window: page({}).window }, async () => {
      expect(() => automationGlobals()).toThrow(ReferenceError)
      expect(await collectComponent('automationGlobals')).toEqual({
        error: 'ReferenceError: document is not defined',
        duration: expect.any(Number),
      })
    })
  })
})
