/**
 * Distinct visitors as a mergeable sketch: the exact set of their hashes (the first 8 bytes of md5
 * of the visitor ID, as the database's tessera_visitor_hash computes them) while it is small, a
 * HyperLogLog of 4 096 registers beyond (standard error 1.6%). Stored as bytes: a tag, then the
 * hashes (0) or the registers (1). Sketches merge by union, so an hour's sketches merge into a
 * day's and days into a range, with no raw event read.
 */
const SPARSE = 0
const DENSE = 1
const PRECISION = 12
const REGISTERS = 1 << PRECISION
const HASH_BYTES = 8
/** An exact set takes as many bytes as the registers at this size. */
const SPARSE_LIMIT = REGISTERS / HASH_BYTES
const HASH = /^[0-9a-f]{16}$/

export class VisitorSketch {
  private hashes: Set<string> | undefined = new Set()
  private registers: Uint8Array | undefined

  static decode(bytes: Uint8Array): VisitorSketch {
    return new VisitorSketch().mergeEncoded(bytes)
  }

  /** Adds one visitor by its hash, 16 hex digits. */
  addHash(hash: string): void {
    if (!HASH.test(hash)) throw new Error('Not a visitor hash.')
    this.add(hash)
  }

  /** Adds a hash known to be 16 hex digits (a set's own, or read from stored bytes). */
  private add(hash: string): void {
    if (this.hashes) {
      this.hashes.add(hash)
      if (this.hashes.size > SPARSE_LIMIT) this.densify()
      return
    }
    this.raise(Number.parseInt(hash.slice(0, 8), 16), Number.parseInt(hash.slice(8, 16), 16))
  }

  merge(other: VisitorSketch): this {
    if (other.hashes) for (const hash of other.hashes) this.add(hash)
    else if (other.registers) this.mergeRegisters(other.registers, 0)
    return this
  }

  /**
   * Merges a stored sketch (`encode`'s bytes) without decoding it first: into registers, a stored
   * set's hashes are read as numbers, never as text (the console's overview merges hundreds).
   */
  mergeEncoded(bytes: Uint8Array): this {
    if (bytes[0] === DENSE && bytes.length === REGISTERS + 1) return this.mergeRegisters(bytes, 1)
    if (bytes[0] !== SPARSE || (bytes.length - 1) % HASH_BYTES !== 0) throw new Error('Not a visitor sketch.')
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    for (let at = 1; at < bytes.length; at += HASH_BYTES) {
      if (this.hashes) this.add(text.toString('hex', at, at + HASH_BYTES))
      else this.raise(view.getUint32(at), view.getUint32(at + 4))
    }
    return this
  }

  private mergeRegisters(ranks: Uint8Array, from: number): this {
    if (this.hashes) this.densify()
    const mine = this.registers as Uint8Array
    for (let index = 0; index < REGISTERS; index++) {
      const rank = ranks[from + index] ?? 0
      if (rank > (mine[index] ?? 0)) mine[index] = rank
    }
    return this
  }

  /** How many distinct visitors: exact for a set, HyperLogLog's estimate (linear counting while sparse) beyond. */
  estimate(): number {
    if (this.hashes) return this.hashes.size
    const registers = this.registers as Uint8Array
    let sum = 0
    let zeros = 0
    for (const rank of registers) {
      sum += 2 ** -rank
      if (rank === 0) zeros++
    }
    const alpha = 0.7213 / (1 + 1.079 / REGISTERS)
    const raw = (alpha * REGISTERS * REGISTERS) / sum
    if (raw <= 2.5 * REGISTERS && zeros > 0) return Math.round(REGISTERS * Math.log(REGISTERS / zeros))
    return Math.round(raw)
  }

  encode(): Buffer {
    if (this.registers) return Buffer.concat([Buffer.from([DENSE]), this.registers])
    const hashes = [...(this.hashes ?? [])].sort()
    return Buffer.concat([Buffer.from([SPARSE]), ...hashes.map((hash) => Buffer.from(hash, 'hex'))])
  }

  private densify() {
    const hashes = this.hashes ?? new Set<string>()
    this.hashes = undefined
    this.registers = new Uint8Array(REGISTERS)
    for (const hash of hashes) this.add(hash)
  }

  /**
   * The register the hash's first 12 bits name takes the rank of its first 1 among the other 52. The
   * 64 bits come as two 32-bit halves: the high one holds the index and the rest's first 20 bits.
   */
  private raise(high: number, low: number) {
    const index = high >>> (32 - PRECISION)
    const upper = high & ((1 << (32 - PRECISION)) - 1)
    const rank = upper
      ? Math.clz32(upper) - PRECISION + 1
      : low
        ? 32 - PRECISION + Math.clz32(low) + 1
        : 64 - PRECISION + 1
    const registers = this.registers as Uint8Array
    if (rank > (registers[index] ?? 0)) registers[index] = rank
  }
}
