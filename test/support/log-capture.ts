import { Writable } from 'node:stream';

/** A log destination that keeps every line, so a test can prove a secret never reached the logs. */
export class LogCapture extends Writable {
  private readonly chunks: string[] = [];

  override _write(chunk: Buffer | string, _encoding: BufferEncoding, done: () => void): void {
    this.chunks.push(chunk.toString());
    done();
  }

  get text(): string {
    return this.chunks.join('');
  }
}
