// The native reader with the schemas, for every load but the analysis thread's (which starts
// without zod: lib/native/line-reader.ts).
import { LineReader, type NativeReaderOptions } from "./line-reader";
import { lineSchemas } from "./schema";

export { emptyFileError, type GenerationEvent, type ReaderEvent } from "./line-reader";

export class NativeReader extends LineReader {
  constructor(file: string, opts: NativeReaderOptions = {}) {
    super(file, opts, lineSchemas);
  }
}
