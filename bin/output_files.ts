// The files a command writes (--pcapng, --pcap, --trace, --table-json): claimed before the
// run, so a path that cannot be written is refused before any work is done (exit status
// 2), then written as the run goes (write(), in pieces, never the whole file in memory)
// and committed whole or not at all. Each is written to a temporary file beside its
// target and renamed over it once every file is complete; on any failure, and on SIGINT or
// SIGTERM, the temporaries are removed, so a target is never left short. A target that
// exists and is not a regular file (/dev/stdout, /dev/null, a pipe) is written in place.
import { closeSync, fsyncSync, openSync, realpathSync, renameSync, rmSync, statSync, writeSync, type Stats } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { UsageError } from './args.ts';

/** A file that could not be written: `exitCode` 2 when the path itself is wrong (found
 *  before the run), 1 when writing failed (a full disk, an I/O error). */
export class OutputError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}

const REASONS: Record<string, string> = {
  ENOENT: 'no such directory',
  ENOTDIR: 'a part of the path is not a directory',
  EISDIR: 'is a directory',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'disk quota exceeded',
  EFBIG: 'file too large',
  ENAMETOOLONG: 'the name is too long',
  EIO: 'input/output error',
  ELOOP: 'too many symbolic links',
};

function reason(e: unknown): string {
  const err = e as NodeJS.ErrnoException;
  return (err.code && REASONS[err.code]) ?? err.message;
}

interface Claim {
  flag: string;
  path: string;
  /** The file the path names, symbolic links followed. */
  target: string;
  /** The temporary beside the target, or null for a target written in place. */
  tmp: string | null;
  fd: number;
  /** Small pieces (a table row, a pcap record) gathered into one write. */
  pending: Uint8Array[];
  pendingBytes: number;
}

/** Pieces are gathered up to this many bytes before they are written. */
const WRITE_CHUNK = 1 << 20;

function statOrNull(path: string): Stats | null {
  try {
    return statSync(path);
  } catch {
    return null;
  }
}

let counter = 0;

export class OutputFiles {
  private claims: Claim[] = [];
  private readonly onSignal = (signal: NodeJS.Signals): void => {
    this.discard();
    process.exit(signal === 'SIGINT' ? 130 : 143);
  };

  /** Opens what `flag` will write to: a new temporary beside `path`, or a device in place.
   *  Throws OutputError (status 2) naming the flag, the path and the reason. */
  claim(flag: string, path: string): void {
    const fail = (why: string): never => {
      throw new OutputError(`${flag} ${path}: cannot write: ${why}`, 2);
    };
    if (path === '') fail('the name is empty');
    const st = statOrNull(path);
    if (st?.isDirectory()) fail('is a directory');
    // A symbolic link is followed: the file it names is replaced, not the link.
    const target = st ? realpathSync(path) : resolve(path);
    const twin = this.claims.find((c) => c.target === target);
    if (twin) throw new UsageError(`${twin.flag} and ${flag} both name ${path}`);
    if (this.claims.length === 0) {
      process.once('SIGINT', this.onSignal);
      process.once('SIGTERM', this.onSignal);
    }
    if (st && !st.isFile()) {
      try {
        this.claims.push({ flag, path, target, tmp: null, fd: openSync(path, 'w'), pending: [], pendingBytes: 0 });
      } catch (e) {
        fail(reason(e));
      }
      return;
    }
    const tmp = join(dirname(target), `.${basename(target)}.${process.pid}-${++counter}.tmp`);
    try {
      this.claims.push({ flag, path, target, tmp, fd: openSync(tmp, 'wx', st ? st.mode & 0o7777 : 0o666), pending: [], pendingBytes: 0 });
    } catch (e) {
      fail(reason(e));
    }
  }

  /** Appends to the file claimed for `flag`. Throws OutputError (status 1) naming the
   *  flag, the path and the reason when the write fails: the caller stops the run, and
   *  discard() removes the temporaries. */
  write(flag: string, piece: Uint8Array | string): void {
    const c = this.claims.find((k) => k.flag === flag);
    if (!c) throw new Error(`no file claimed for ${flag}`);
    const bytes = typeof piece === 'string' ? Buffer.from(piece) : piece;
    c.pending.push(bytes);
    c.pendingBytes += bytes.length;
    if (c.pendingBytes >= WRITE_CHUNK) this.flush(c);
  }

  /** Completes every claimed file (written to the disk, closed), then renames them into
   *  place. A failure removes every temporary. */
  commit(): void {
    try {
      for (const c of this.claims) this.close(c);
      for (const c of this.claims) if (c.tmp) renameSync(c.tmp, c.target);
      this.claims = [];
    } finally {
      this.discard();
    }
  }

  private flush(c: Claim): void {
    const bytes = c.pending.length === 1 ? c.pending[0]! : Buffer.concat(c.pending);
    c.pending = [];
    c.pendingBytes = 0;
    try {
      for (let off = 0; off < bytes.length;) off += writeSync(c.fd, bytes, off, bytes.length - off);
    } catch (e) {
      throw new OutputError(`${c.flag} ${c.path}: cannot write: ${reason(e)}`, 1);
    }
  }

  private close(c: Claim): void {
    this.flush(c);
    try {
      // A disk that fills late (or a network file system) may report it only here.
      if (c.tmp) fsyncSync(c.fd);
      closeSync(c.fd);
      c.fd = -1;
    } catch (e) {
      throw new OutputError(`${c.flag} ${c.path}: cannot write: ${reason(e)}`, 1);
    }
  }

  /** Closes and removes what was not committed. */
  discard(): void {
    for (const c of this.claims) {
      if (c.fd >= 0) closeQuietly(c.fd);
      if (c.tmp) rmSync(c.tmp, { force: true });
    }
    this.claims = [];
    process.removeListener('SIGINT', this.onSignal);
    process.removeListener('SIGTERM', this.onSignal);
  }
}

function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // already closed by a failed write; nothing more to release
  }
}
