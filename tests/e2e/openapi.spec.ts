import { expect, test } from '@playwright/test'

test('every documented route is served and answers as documented without a key', async ({ request }) => {
  const response = await request.get('/api/v1/openapi.json')
  expect(response.status()).toBe(200)
  const document = await response.json()
  const operations = Object.entries(
    document.paths as Record<
      string,
      Record<
        string,
        {
          responses: object
          security?: object[]
          requestBody?: object
          parameters?: { required?: boolean }[]
        }
      >
    >,
  ).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ path, method, operation })),
  )
  expect(operations.length).toBeGreaterThanOrEqual(9)
  for (const { path, method, operation } of operations) {
    const url = path.replace(/\{(\w+)\}/g, 'example-$1')
    const answer = await request.fetch(url, {
      method,
      headers: { 'content-type': 'application/json' },
      data: method === 'post' ? '{}' : undefined,
    })
    const documented = Object.keys(operation.responses).map(Number)
    expect(documented, `${method.toUpperCase()} ${path} answered ${answer.status()}`).toContain(
      answer.status(),
    )
    // A public route that requires nothing (the agent's nonce) simply answers.
    const requiresNothing =
      !operation.security &&
      !operation.requestBody &&
      !(operation.parameters ?? []).some((parameter) => parameter.required)
    if (requiresNothing) {
      expect(answer.status(), `${method.toUpperCase()} ${path}`).toBe(200)
      continue
    }
    // Fingerprint's v4 answers a missing key with 403, and Tessera's /v4 face does as v4 does.
    const unauthorised = path.startsWith('/v4/') ? 403 : 401
    expect(answer.status()).toBe(operation.security ? unauthorised : 400)
    const body = await answer.json()
    expect(body.error).toMatchObject({ code: expect.any(String), message: expect.any(String) })
  }
})
