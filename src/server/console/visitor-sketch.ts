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

export class VisitorSketch {
  private hashes: Set<string> | undefined = new Set()
  private registers: Uint8Array | undefined

  static decode(bytes: Uint8Array): VisitorSketch {
    const sketch = new VisitorSketch()
    if (bytes[0] === DENSE && bytes.length === REGISTERS + 1) {
      sketch.hashes = undefined
      sketch.registers = bytes.slice(1)
      return sketch
    }
    if (bytes[0] !== SPARSE || (bytes.length - 1) % HASH_BYTES !== 0) throw new Error('Not a visitor sketch.')
    for (let at = 1; at < bytes.length; at += HASH_BYTES)
      sketch.addHash(Buffer.from(bytes.subarray(at, at + HASH_BYTES)).toString('hex'))
    return sketch
  }

  /** Adds one visitor by its hash, 16 hex digits. */
  addHash(hash: string): void {
    if (this.hashes) {
      this.hashes.add(hash)
      if (this.hashes.size > SPARSE_LIMIT) this.densify()
      return
    }
    this.raise(hash)
  }

  merge(other: VisitorSketch): this {
    if (other.hashes) for (const hash of other.hashes) this.addHash(hash)
    else if (other.registers) {
      if (this.hashes) this.densify()
      const mine = this.registers as Uint8Array
      other.registers.forEach((rank, index) => {
        if (rank > (mine[index] ?? 0)) mine[index] = rank
      })
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
    for (const hash of hashes) this.raise(hash)
  }

  /** The register the hash's first 12 bits name takes the rank of its first 1 among the other 52. */
  private raise(hash: string) {
    const value = BigInt(`0x${hash}`)
    const index = Number(value >> BigInt(64 - PRECISION))
    const rest = value & ((1n << BigInt(64 - PRECISION)) - 1n)
    const rank = rest === 0n ? 64 - PRECISION + 1 : 64 - PRECISION - rest.toString(2).length + 1
    const registers = this.registers as Uint8Array
    if (rank > (registers[index] ?? 0)) registers[index] = rank
  }
}
