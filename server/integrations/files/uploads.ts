import type { MultipartFile } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { fileTypeFromBuffer } from 'file-type';
import { limits } from '../../../domain/catalog.ts';
import { carrierDocumentFields } from '../../../domain/schemas/index.ts';
import {
  DomainError,
  PayloadTooLargeError,
  UnsupportedMediaTypeError,
  ValidationError,
} from '../../../domain/shared/errors.ts';

/**
 * Register @fastify/multipart with these: it ignores Fastify's bodyLimit, so without them a client
 * can stream any number of parts of any size.
 */
export const multipartLimits = {
  fileSize: limits.documentMaxBytes,
  files: 6,
  parts: 20,
  fields: 10,
  fieldSize: 100 * 1024,
} as const;

/** pdf: documents; image: a signature (jpeg or png); csv: a UTF-8 text table (no signature to sniff). */
export type Accept = 'pdf' | 'image' | 'csv';
export type FileRule = { required: boolean; accept: Accept };
export type UploadedFile = { buffer: Buffer; mime: string; size: number };
export type MultipartResult = {
  /** The `data` field, parsed as JSON; undefined when it was not sent. */
  data: unknown;
  /** Every other plain field, as sent. */
  fields: Record<string, string>;
  files: Record<string, UploadedFile>;
};

const accepted: Record<Exclude<Accept, 'csv'>, readonly string[]> = {
  pdf: limits.documentMimeTypes,
  image: limits.signatureMimeTypes,
};

/**
 * Reads a whole multipart request into memory and checks it; writes nothing, so the caller can
 * validate `data` too and then save everything at once. Each file's type comes from its bytes:
 * the client's file name and Content-Type are ignored.
 */
export async function readMultipart(
  request: FastifyRequest,
  options: { files: Record<string, FileRule>; maxBytes?: number },
): Promise<MultipartResult> {
  const maxBytes = Math.min(options.maxBytes ?? multipartLimits.fileSize, multipartLimits.fileSize);
  const result: MultipartResult = { data: undefined, fields: {}, files: {} };
  const seen = new Set<string>();
  if (!request.isMultipart())
    throw new UnsupportedMediaTypeError('The request must be multipart/form-data');
  // throwFileSizeLimit off: the truncated flag is checked here, per field, with the field's name.
  const parts = request.parts({
    limits: { ...multipartLimits, fileSize: maxBytes },
    throwFileSizeLimit: false,
  } as Parameters<FastifyRequest['parts']>[0]);
  try {
    for await (const part of parts) {
      if (seen.has(part.fieldname))
        throw ValidationError.field(part.fieldname, 'This field may be sent only once');
      seen.add(part.fieldname);
      if (part.type === 'field') {
        if (part.valueTruncated)
          throw new PayloadTooLargeError('Field too large', [
            { path: part.fieldname, message: 'Field too large' },
          ]);
        if (part.fieldname === 'data') result.data = parseData(part.value);
        else result.fields[part.fieldname] = String(part.value);
        continue;
      }
      const rule = Object.hasOwn(options.files, part.fieldname)
        ? options.files[part.fieldname]
        : undefined;
      if (!rule) {
        part.file.resume();
        throw ValidationError.field(part.fieldname, 'Unexpected file');
      }
      const buffer = await readFile(part);
      // A browser sends an empty, nameless part for a file input left empty: that is no file.
      if (buffer.length === 0) continue;
      result.files[part.fieldname] = {
        buffer,
        mime: await detect(buffer, rule.accept, part.fieldname),
        size: buffer.length,
      };
    }
  } catch (error) {
    throw translateMultipartError(error);
  }
  for (const [name, rule] of Object.entries(options.files)) {
    if (rule.required && !result.files[name])
      throw ValidationError.field(name, 'A file is required');
  }
  return result;
}

async function readFile(part: MultipartFile): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of part.file) chunks.push(chunk as Buffer);
  // busboy stops at limits.fileSize and sets `truncated`; a cut file must never pass as whole.
  if (part.file.truncated)
    throw new PayloadTooLargeError('File too large', [
      { path: part.fieldname, message: 'File too large' },
    ]);
  return Buffer.concat(chunks);
}

function parseData(value: unknown): unknown {
  // Sent with Content-Type application/json, @fastify/multipart has parsed it already.
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    throw ValidationError.field('data', 'The data field must be valid JSON');
  }
}

async function detect(buffer: Buffer, accept: Accept, path: string): Promise<string> {
  const type = await fileTypeFromBuffer(buffer);
  if (accept === 'csv') {
    if (!type && isUtf8Text(buffer)) return 'text/csv';
  } else if (type && accepted[accept].includes(type.mime)) {
    return type.mime;
  }
  throw new UnsupportedMediaTypeError('Unsupported Format', [
    { path, message: 'Unsupported Format' },
  ]);
}

function isUtf8Text(buffer: Buffer): boolean {
  if (buffer.includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(buffer);
    return true;
  } catch {
    return false;
  }
}

/**
 * @fastify/multipart and busboy errors as the API's answers; ours pass through. Too many parts is a
 * 413 unless the route counts its parts itself (`tooManyParts`).
 */
export function translateMultipartError(
  error: unknown,
  tooManyParts: () => DomainError = () => new PayloadTooLargeError('Too many parts in the request'),
): unknown {
  if (error instanceof DomainError) return error;
  const code = (error as { code?: string }).code;
  switch (code) {
    case 'FST_PARTS_LIMIT':
    case 'FST_FILES_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return tooManyParts();
    case 'FST_REQ_FILE_TOO_LARGE':
      return new PayloadTooLargeError('File too large');
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return new UnsupportedMediaTypeError('The request must be multipart/form-data');
    case 'FST_INVALID_JSON_FIELD_ERROR':
      return ValidationError.field('data', 'The data field must be valid JSON');
    case 'FST_PROTO_VIOLATION':
      return new ValidationError('Field name not allowed');
    case 'FST_MP_PREMATURE_CLOSE':
      return new ValidationError('The multipart body could not be read');
  }
  // busboy's own errors carry no code: malformed or cut-off bodies are the client's fault.
  if (
    error instanceof Error &&
    code === undefined &&
    /multipart|part|boundary|form|terminated|header/i.test(error.message)
  ) {
    return new ValidationError('The multipart body could not be read');
  }
  return error;
}

/**
 * A Content-Disposition for a download: always an attachment, with an ASCII fallback name and the
 * full name in RFC 5987 form. Line breaks, quotes, path separators, control and bidi-override
 * characters (which can disguise an extension) are removed.
 */
export function contentDisposition(filename: string): string {
  const cleaned =
    filename
      .normalize('NFC')
      .replace(
        // biome-ignore lint/suspicious/noControlCharactersInRegex: strips control characters from a file name on purpose
        /[\u0000-\u001f\u007f-\u009f"\\/\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/g,
        '',
      )
      .replace(/^[\s.]+/, '')
      .trim()
      .slice(0, 150) || 'download';
  const ascii = cleaned.replace(/[^\x20-\x7e]|[%;]/g, '_');
  const encoded = encodeURIComponent(cleaned).replace(
    /['()*]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/** The four carrier documents, each optional and PDF only (checked by bytes). */
export const optionalCarrierDocuments = Object.fromEntries(
  carrierDocumentFields.map((name) => [name, { required: false, accept: 'pdf' as const }]),
) as Record<(typeof carrierDocumentFields)[number], FileRule>;
