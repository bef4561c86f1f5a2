/**
 * Keeps the first `cap` bytes of a stream and counts the rest. The kept part is cut back to a whole
 * UTF-8 character, so truncated Japanese output never ends in a replacement character.
 */
export class CappedOutput {
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  /** Every byte the program wrote, kept or not. */
  total = 0;

  constructor(private readonly cap: number) {}

  push(chunk: Buffer): void {
    this.total += chunk.length;
    if (this.kept >= this.cap) return;
    const take = chunk.length <= this.cap - this.kept ? chunk : chunk.subarray(0, this.cap - this.kept);
    this.chunks.push(take);
    this.kept += take.length;
  }

  get truncated(): boolean {
    return this.total > this.cap;
  }

  /** The kept bytes as they came. */
  bytes(): Uint8Array {
    return new Uint8Array(Buffer.concat(this.chunks, this.kept));
  }

  text(): string {
    const bytes = Buffer.concat(this.chunks, this.kept);
    return (this.truncated ? bytes.subarray(0, wholeCharacterLength(bytes)) : bytes).toString('utf8');
  }
}

/** Length of `bytes` without a UTF-8 sequence that was cut off at the end. */
export function wholeCharacterLength(bytes: Uint8Array): number {
  const end = bytes.length;
  for (let back = 1; back <= Math.min(4, end); back++) {
    const byte = bytes[end - back]!;
    if ((byte & 0xc0) === 0x80) continue; // continuation byte: keep looking for the lead byte
    const need = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return need > back ? end - back : end;
  }
  return end;
}
