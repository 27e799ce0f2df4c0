import { describe, expect, it } from 'vitest'
import { parseEnv, testOnlySettings } from './env'

describe('parseEnv', () => {
  it('fills every default from an empty environment', () => {
    const env = parseEnv({})
    expect(env).toMatchObject({
      PORT: 3000,
      TESSERA_DATA_DIR: './data',
      TESSERA_RETENTION_DAYS: 90,
      TESSERA_TEST_FAULTS: false,
      TESSERA_WEBHOOK_ALLOW_PRIVATE: false,
    })
    expect(env.DATABASE_URL).toBeUndefined()
  })

  it('accepts a PostgreSQL URL and turns flags into booleans', () => {
    const env = parseEnv({ DATABASE_URL: 'postgres://u:p@db:5432/tessera', TESSERA_TEST_FAULTS: '1' })
    expect(env.DATABASE_URL).toBe('postgres://u:p@db:5432/tessera')
    expect(env.TESSERA_TEST_FAULTS).toBe(true)
  })

  it('names the test-only settings that are on, and none by default', () => {
    expect(testOnlySettings(parseEnv({}))).toEqual([])
    expect(testOnlySettings(parseEnv({ TESSERA_WEBHOOK_ALLOW_PRIVATE: '1' }))).toEqual([
      'TESSERA_WEBHOOK_ALLOW_PRIVATE',
    ])
    expect(
      testOnlySettings(parseEnv({ TESSERA_WEBHOOK_ALLOW_PRIVATE: '1', TESSERA_TEST_FAULTS: 'true' })),
    ).toEqual(['TESSERA_TEST_FAULTS', 'TESSERA_WEBHOOK_ALLOW_PRIVATE'])
  })

  it('names every invalid variable in one error', () => {
    let message = ''
    try {
      parseEnv({ PORT: 'eighty', DATABASE_URL: 'mysql://x/y', TESSERA_RETENTION_DAYS: '0' })
    } catch (error) {
      message = String(error)
    }
    expect(message).toContain('PORT')
    expect(message).toContain('DATABASE_URL must be a postgres:// or postgresql:// URL.')
    expect(message).toContain('TESSERA_RETENTION_DAYS')
  })

  it('reads allowed origins as a list and rejects anything that is not an origin', () => {
    expect(
      parseEnv({ TESSERA_ALLOWED_ORIGINS: ' https://a.example, http://localhost:8080 ' })
        .TESSERA_ALLOWED_ORIGINS,
    ).toEqual(['https://a.example', 'http://localhost:8080'])
    expect(() => parseEnv({ TESSERA_ALLOWED_ORIGINS: 'https://a.example/path' })).toThrow(/not an origin/)
  })
})

describe('TESSERA_ENCRYPTION_KEY', () => {
  it('takes 32 bytes in base64 and refuses anything else, naming the variable', () => {
    const key = Buffer.alloc(32, 7)
    expect(parseEnv({ TESSERA_ENCRYPTION_KEY: key.toString('base64') }).TESSERA_ENCRYPTION_KEY).toEqual(key)
    expect(parseEnv({ TESSERA_ENCRYPTION_KEY: key.toString('base64url') }).TESSERA_ENCRYPTION_KEY).toEqual(
      key,
    )
    expect(parseEnv({}).TESSERA_ENCRYPTION_KEY).toBeUndefined()
    for (const wrong of ['', 'secret', Buffer.alloc(16).toString('base64'), `${key.toString('base64')}!`]) {
      expect(() => parseEnv({ TESSERA_ENCRYPTION_KEY: wrong })).toThrow(
        /TESSERA_ENCRYPTION_KEY must be 32 bytes/,
      )
    }
  })
})

describe('operator and public URL settings', () => {
  it('stops start-up on a weak TESSERA_ADMIN_PASSWORD, with the reason', () => {
    expect(() => parseEnv({ TESSERA_ADMIN_PASSWORD: 'password1234' })).toThrow(
      /TESSERA_ADMIN_PASSWORD: This password is too easy to guess/,
    )
    expect(parseEnv({ TESSERA_ADMIN_PASSWORD: 'cobalt-meridian-lantern-77' }).TESSERA_ADMIN_PASSWORD).toBe(
      'cobalt-meridian-lantern-77',
    )
  })

  it("accepts the test suites' and benchmarks' own admin passwords", () => {
    for (const password of ['e2e correct horse battery', 'bench detection operator password'])
      expect(parseEnv({ TESSERA_ADMIN_PASSWORD: password }).TESSERA_ADMIN_PASSWORD).toBe(password)
  })

  it('reads TESSERA_PUBLIC_URL as an origin', () => {
    expect(parseEnv({ TESSERA_PUBLIC_URL: 'https://tessera.example.com/' }).TESSERA_PUBLIC_URL).toBe(
      'https://tessera.example.com',
    )
    expect(() => parseEnv({ TESSERA_PUBLIC_URL: 'https://tessera.example.com/app' })).toThrow(
      /TESSERA_PUBLIC_URL must be an origin/,
    )
  })
})
