import { describe, expect, it } from 'vitest'
import { parseEnv } from '../env'
import { configuredHosts, isOwnHost, namesOwnHost } from './allowed-hosts'
import { allowedHostEntry, hostName } from './host-name'

describe('Tessera’s own host names', () => {
  it('come from TESSERA_PUBLIC_URL and TESSERA_ALLOWED_HOSTS, in one canonical form', () => {
    const env = parseEnv({
      TESSERA_PUBLIC_URL: 'https://id.example.com',
      TESSERA_ALLOWED_HOSTS: 'LocalHost, 10.0.0.5,::1, [2001:DB8::1]',
    })
    expect(configuredHosts(env)).toEqual([
      'id.example.com',
      'localhost',
      '10.0.0.5',
      '[::1]',
      '[2001:db8::1]',
    ])
    expect(configuredHosts(parseEnv({}))).toEqual([])
  })

  it('refuse a list entry with a scheme, a port or a path, naming it', () => {
    for (const entry of ['https://id.example', 'id.example:443', 'id.example/x', 'a b'])
      expect(() => parseEnv({ TESSERA_ALLOWED_HOSTS: entry })).toThrow(entry)
    expect(allowedHostEntry('[::1]')).toBe('[::1]')
  })

  it('match a Host header by its name, whatever its port and case', () => {
    const hosts = ['id.example.com', '[::1]', '127.0.0.1']
    expect(isOwnHost('ID.example.com:8443', hosts)).toBe(true)
    expect(isOwnHost('[::1]:3000', hosts)).toBe(true)
    expect(isOwnHost('127.1', hosts)).toBe(true) // the same address, as URLs read it
    expect(isOwnHost('id.example.com.evil.example', hosts)).toBe(false)
    expect(isOwnHost('evil.example', hosts)).toBe(false)
    expect(isOwnHost('x"><b>', hosts)).toBe(false)
    expect(isOwnHost(undefined, hosts)).toBe(false)
    // Nothing configured (local development): any Host.
    expect(isOwnHost('evil.example', [])).toBe(true)
    expect(hostName('user@evil.example')).toBeUndefined()
  })

  it('check the X-Forwarded-Host a trusted proxy passed on as well as the Host', () => {
    const hosts = ['id.example.com', 'tessera.internal']
    expect(namesOwnHost({ host: 'tessera.internal:3000', forwardedHost: 'id.example.com' }, hosts)).toBe(true)
    expect(namesOwnHost({ host: 'tessera.internal:3000', forwardedHost: 'rebound.example' }, hosts)).toBe(
      false,
    )
    expect(namesOwnHost({ host: 'rebound.example', forwardedHost: 'id.example.com' }, hosts)).toBe(false)
  })
})
