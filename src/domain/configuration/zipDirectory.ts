import { strFromU8 } from 'fflate';

/**
 * The entries of a zip as its central directory lists them, read from the archive's bytes: what each declares
 * (method, sizes) and where its data start. A reader of its own rather than fflate's `unzipSync`, which does not
 * say where an entry's data are and inflates each into a buffer of the declared size, cutting silently what goes
 * past it.
 */
export interface ZipDirectoryEntry {
  /** As the archive spells it (UTF-8 when flagged, else Latin-1, as fflate reads it). */
  name: string;
  /** 0 stored, 8 deflated. */
  method: number;
  compressedSize: number;
  declaredSize: number;
  dataOffset: number;
}

/** An archive whose structure cannot be read: the message says what is wrong. */
export class DamagedZip extends Error {}

const END_OF_DIRECTORY = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_END_OF_DIRECTORY = 0x06064b50;
const CENTRAL_HEADER = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
const END_OF_DIRECTORY_SIZE = 22;
const MAX_COMMENT = 0xffff;
/** A 32-bit size or offset of this value is in the entry's ZIP64 extra field. */
const IN_ZIP64_FIELD = 0xffffffff;
const ZIP64_EXTRA = 0x0001;
const UTF8_NAME_FLAG = 0x0800;

/** The directory's entries in order, read one at a time: a caller counting them stops reading at its limit. */
export function* zipDirectory(bytes: Uint8Array): Generator<ZipDirectoryEntry> {
  const read = new LittleEndian(bytes);
  const end = findEndOfDirectory(read);
  let count = read.u16(end + 10);
  let offset = read.u32(end + 16);
  if (end >= 20 && read.u32(end - 20) === ZIP64_LOCATOR) {
    const zip64End = read.u64(end - 12);
    if (read.u32(zip64End) !== ZIP64_END_OF_DIRECTORY) throw new DamagedZip('damaged ZIP64 end of directory');
    count = read.u64(zip64End + 32);
    offset = read.u64(zip64End + 48);
  }
  for (let index = 0; index < count; index += 1) {
    if (read.u32(offset) !== CENTRAL_HEADER) throw new DamagedZip('damaged central directory');
    const flags = read.u16(offset + 8);
    const nameLength = read.u16(offset + 28);
    const extraLength = read.u16(offset + 30);
    const commentLength = read.u16(offset + 32);
    const nameStart = offset + 46;
    const sizes = {
      declaredSize: read.u32(offset + 24),
      compressedSize: read.u32(offset + 20),
      localOffset: read.u32(offset + 42),
    };
    readZip64Sizes(read, nameStart + nameLength, extraLength, sizes);
    const local = sizes.localOffset;
    if (read.u32(local) !== LOCAL_HEADER) throw new DamagedZip('damaged local header');
    yield {
      name: strFromU8(read.slice(nameStart, nameLength), (flags & UTF8_NAME_FLAG) === 0),
      method: read.u16(offset + 10),
      compressedSize: sizes.compressedSize,
      declaredSize: sizes.declaredSize,
      dataOffset: local + 30 + read.u16(local + 26) + read.u16(local + 28),
    };
    offset = nameStart + nameLength + extraLength + commentLength;
  }
}

function findEndOfDirectory(read: LittleEndian): number {
  const last = read.length - END_OF_DIRECTORY_SIZE;
  for (let at = last; at >= 0 && at >= last - MAX_COMMENT; at -= 1) {
    if (read.u32(at) === END_OF_DIRECTORY) return at;
  }
  throw new DamagedZip('no end of central directory');
}

/** Sizes and offset too large for 32 bits are in the ZIP64 extra field, in this order, only those marked. */
function readZip64Sizes(
  read: LittleEndian,
  start: number,
  length: number,
  sizes: { declaredSize: number; compressedSize: number; localOffset: number },
) {
  const marked = (['declaredSize', 'compressedSize', 'localOffset'] as const).filter(
    (key) => sizes[key] === IN_ZIP64_FIELD,
  );
  if (marked.length === 0) return;
  for (let at = start; at + 4 <= start + length; at += 4 + read.u16(at + 2)) {
    if (read.u16(at) !== ZIP64_EXTRA) continue;
    marked.forEach((key, index) => (sizes[key] = read.u64(at + 4 + 8 * index)));
    return;
  }
  throw new DamagedZip('missing ZIP64 sizes');
}

/** Reads within the archive only: a position outside it is a damaged archive, never an exception of another kind. */
class LittleEndian {
  private readonly view: DataView;

  constructor(private readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  get length(): number {
    return this.bytes.length;
  }

  u16(at: number): number {
    this.within(at, 2);
    return this.view.getUint16(at, true);
  }

  u32(at: number): number {
    this.within(at, 4);
    return this.view.getUint32(at, true);
  }

  u64(at: number): number {
    return this.u32(at) + this.u32(at + 4) * 2 ** 32;
  }

  slice(at: number, length: number): Uint8Array {
    this.within(at, length);
    return this.bytes.subarray(at, at + length);
  }

  private within(at: number, length: number) {
    if (!(at >= 0 && at + length <= this.bytes.length)) throw new DamagedZip('truncated archive');
  }
}
