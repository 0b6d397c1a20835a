import type { FastifyRequest } from 'fastify';
import { fileTypeFromBuffer } from 'file-type';
import { POD_MAX_FILE_BYTES, POD_MAX_PHOTOS } from '../../../domain/contracts/pod.contract.ts';
import {
  PayloadTooLargeError,
  UnsupportedMediaTypeError,
  ValidationError,
} from '../../../domain/shared/errors.ts';
import { translateMultipartError } from './uploads.ts';

export type PodUpload = {
  /** The `data` field, parsed as JSON; undefined when it was not sent. */
  data: unknown;
  photos: { buffer: Buffer; mime: string }[];
  signature: { buffer: Buffer; mime: string } | null;
};

/** What each file field takes, judged by the bytes (magic numbers), never by the name or Content-Type sent. */
const accepted: Record<'photo' | 'signature', { mimes: readonly string[]; message: string }> = {
  photo: { mimes: ['image/jpeg', 'image/png'], message: 'A photo must be a JPEG or PNG image' },
  signature: { mimes: ['image/png'], message: 'The signature must be a PNG image' },
};

/**
 * Reads a proof of delivery's multipart body into memory: `data` (JSON), up to five `photo` files
 * and one `signature`, each at most 10 MB. Writes nothing. A sixth photo, a file whose bytes are no
 * accepted image, or an unknown field is a 400 naming the field; a file over the limit a 413.
 */
export async function readPodUpload(request: FastifyRequest): Promise<PodUpload> {
  if (!request.isMultipart())
    throw new UnsupportedMediaTypeError('The request must be multipart/form-data');
  const result: PodUpload = { data: undefined, photos: [], signature: null };
  // One file more than allowed gets through busboy's count, so that a sixth photo is told apart by its field.
  const parts = request.parts({
    limits: {
      fileSize: POD_MAX_FILE_BYTES,
      files: POD_MAX_PHOTOS + 2,
      parts: POD_MAX_PHOTOS + 6,
      fields: 3,
      fieldSize: 16 * 1024,
    },
    throwFileSizeLimit: false,
  } as Parameters<FastifyRequest['parts']>[0]);
  let dataSeen = false;
  try {
    for await (const part of parts) {
      if (part.type === 'field') {
        if (part.fieldname !== 'data')
          throw ValidationError.field(part.fieldname, 'Unexpected field');
        if (dataSeen) throw ValidationError.field('data', 'This field may be sent only once');
        dataSeen = true;
        if (part.valueTruncated)
          throw new PayloadTooLargeError('Field too large', [
            { path: 'data', message: 'Field too large' },
          ]);
        result.data = parseData(part.value);
        continue;
      }
      const field = part.fieldname;
      if (field !== 'photo' && field !== 'signature') {
        part.file.resume();
        throw ValidationError.field(field, 'Unexpected file');
      }
      if (field === 'photo' && result.photos.length >= POD_MAX_PHOTOS) {
        part.file.resume();
        throw ValidationError.field('photo', `At most ${POD_MAX_PHOTOS} photos`);
      }
      if (field === 'signature' && result.signature) {
        part.file.resume();
        throw ValidationError.field('signature', 'One signature only');
      }
      const chunks: Buffer[] = [];
      for await (const chunk of part.file) chunks.push(chunk as Buffer);
      if (part.file.truncated) {
        throw new PayloadTooLargeError(
          `Each file may be at most ${POD_MAX_FILE_BYTES / 1024 / 1024} MB`,
          [{ path: field, message: 'File too large' }],
        );
      }
      const buffer = Buffer.concat(chunks);
      // A browser sends an empty, nameless part for a file input left empty: that is no file.
      if (buffer.length === 0) continue;
      const type = await fileTypeFromBuffer(buffer);
      if (!type || !accepted[field].mimes.includes(type.mime))
        throw ValidationError.field(field, accepted[field].message);
      if (field === 'photo') result.photos.push({ buffer, mime: type.mime });
      else result.signature = { buffer, mime: type.mime };
    }
  } catch (error) {
    throw translateMultipartError(error, tooManyProofParts);
  }
  return result;
}

function parseData(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    throw ValidationError.field('data', 'The data field must be valid JSON');
  }
}

/** A seventh part names the photos: the route's own limit, not a size. */
const tooManyProofParts = () =>
  new ValidationError(`Too many parts: at most ${POD_MAX_PHOTOS} photos and one signature`, [
    { path: 'photo', message: `At most ${POD_MAX_PHOTOS} photos` },
  ]);
