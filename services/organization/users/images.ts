import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AppError } from '#shared/errors.js';

/** Largest profile image accepted. */
export const MAX_PROFILE_IMAGE_BYTES = 2 * 1024 * 1024;

/** The image type of these bytes by their signature (PNG, JPEG, WebP), whatever the client claimed. */
export function sniffImageType(bytes: Buffer): 'image/png' | 'image/jpeg' | 'image/webp' | null {
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.length >= 12 && bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP') return 'image/webp';
  return null;
}

export const profileImageKey = (companyId: number, userId: number): string => `company-${companyId}/users/${userId}/profile-image`;

/** A multipart body as fields and at most one image part. */
export interface MultipartBody {
  fields: Record<string, string>;
  image: { bytes: Buffer; contentType: 'image/png' | 'image/jpeg' | 'image/webp' } | null;
}

/**
 * Reads a multipart/form-data body: text fields, and the `imageField` file part checked for size
 * (413) and type by its bytes (415). Any other file part is refused.
 */
export async function readMultipart(request: FastifyRequest, imageField: string): Promise<MultipartBody> {
  const fields: Record<string, string> = {};
  let image: MultipartBody['image'] = null;
  for await (const part of request.parts({ limits: { fileSize: MAX_PROFILE_IMAGE_BYTES, files: 1, fields: 10, fieldSize: 64 * 1024 } })) {
    if (part.type === 'field') {
      fields[part.fieldname] = String(part.value);
      continue;
    }
    if (part.fieldname !== imageField) {
      part.file.resume();
      throw new AppError('BAD_REQUEST', `Unexpected file part "${part.fieldname}"; send the image as "${imageField}"`);
    }
    const bytes = await part.toBuffer();
    if (part.file.truncated) throw new AppError('PAYLOAD_TOO_LARGE', `The image is larger than ${MAX_PROFILE_IMAGE_BYTES} bytes`);
    const contentType = sniffImageType(bytes);
    if (!contentType) throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'The image must be a PNG, JPEG or WebP file');
    image = { bytes, contentType };
  }
  return { fields, image };
}

const typed = (app: FastifyInstance) => app.withTypeProvider<ZodTypeProvider>();

/**
 * Registers routes in a sub-plugin of their own that parses multipart/form-data: multipart is parsed
 * only where an image may be uploaded; everywhere else such a body stays a 415.
 */
export async function withImageUploads(app: FastifyInstance, routes: (upload: ReturnType<typeof typed>) => void): Promise<void> {
  await app.register(async (upload) => {
    await upload.register((await import('@fastify/multipart')).default, { limits: { fileSize: MAX_PROFILE_IMAGE_BYTES, files: 1, fields: 10 } });
    routes(typed(upload));
  });
}
