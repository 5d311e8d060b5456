// The SSH wire encoding (RFC 4251 §5) as signatures and public keys use it: big-endian uint32 lengths before byte
// strings. Every read is bounds-checked: the bytes come from a file anyone could have written.

export class SshFormatError extends Error {
  constructor(why: string) {
    super(why);
    this.name = 'SshFormatError';
  }
}

/** Reads SSH wire values from a buffer, front to back; a short or overlong field throws SshFormatError. */
export class WireReader {
  private offset = 0;

  constructor(private readonly bytes: Buffer) {}

  raw(length: number): Buffer {
    if (length < 0 || this.offset + length > this.bytes.length) throw new SshFormatError('it is cut short');
    const out = this.bytes.subarray(this.offset, this.offset + length);
    this.offset += length;
    return out;
  }

  uint32(): number {
    return this.raw(4).readUInt32BE(0);
  }

  string(): Buffer {
    return this.raw(this.uint32());
  }

  /** A short name (an algorithm, a namespace): printable ASCII only. */
  text(max = 256): string {
    const bytes = this.string();
    if (bytes.length > max || !/^[\x20-\x7e]*$/.test(bytes.toString('latin1')))
      throw new SshFormatError('a name in it is not printable text');
    return bytes.toString('latin1');
  }

  /** An mpint (two's complement, big-endian) that must be positive: its magnitude without leading zeros. */
  positiveMpint(): Buffer {
    const bytes = this.string();
    if (bytes.length > 0 && bytes[0] & 0x80) throw new SshFormatError('a number in it is negative');
    let start = 0;
    while (start < bytes.length && bytes[start] === 0) start++;
    if (start === bytes.length) throw new SshFormatError('a number in it is zero');
    return bytes.subarray(start);
  }

  get done(): boolean {
    return this.offset === this.bytes.length;
  }

  /** Nothing may follow the last field: trailing bytes are a different (or tampered) structure. */
  end(): void {
    if (!this.done) throw new SshFormatError('it has bytes after its last field');
  }
}

/** SSH wire values joined into one buffer (for the data a signature covers, and for tests). */
export class WireWriter {
  private readonly parts: Buffer[] = [];

  raw(bytes: Buffer | string): this {
    this.parts.push(typeof bytes === 'string' ? Buffer.from(bytes, 'latin1') : bytes);
    return this;
  }

  uint32(value: number): this {
    const out = Buffer.alloc(4);
    out.writeUInt32BE(value, 0);
    return this.raw(out);
  }

  string(bytes: Buffer | string): this {
    const value = typeof bytes === 'string' ? Buffer.from(bytes, 'latin1') : bytes;
    return this.uint32(value.length).raw(value);
  }

  /** A positive number as an mpint: a leading zero byte when its top bit is set. */
  mpint(magnitude: Buffer): this {
    let start = 0;
    while (start < magnitude.length - 1 && magnitude[start] === 0) start++;
    const trimmed = magnitude.subarray(start);
    return this.string(trimmed[0] & 0x80 ? Buffer.concat([Buffer.from([0]), trimmed]) : trimmed);
  }

  toBuffer(): Buffer {
    return Buffer.concat(this.parts);
  }
}
