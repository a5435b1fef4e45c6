export type ImageType = { mime: 'image/jpeg'; ext: 'jpg' } | { mime: 'image/png'; ext: 'png' } | { mime: 'image/webp'; ext: 'webp' } | { mime: 'image/gif'; ext: 'gif' };

const startsWith = (buffer: Buffer, bytes: number[], offset = 0) =>
  buffer.length >= offset + bytes.length && bytes.every((byte, index) => buffer[offset + index] === byte);

const ascii = (text: string) => [...text].map((char) => char.charCodeAt(0));

/**
 * The image type by its content (magic bytes), never by the file name or the browser's claim, so a
 * renamed HTML or script file is refused. Only formats every browser renders are accepted.
 */
export function detectImageType(buffer: Buffer): ImageType | undefined {
  if (startsWith(buffer, [0xff, 0xd8, 0xff])) return { mime: 'image/jpeg', ext: 'jpg' };
  // PNG signature followed by the IHDR chunk every PNG starts with.
  if (startsWith(buffer, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) && startsWith(buffer, ascii('IHDR'), 12)) {
    return { mime: 'image/png', ext: 'png' };
  }
  if (startsWith(buffer, ascii('RIFF')) && startsWith(buffer, ascii('WEBP'), 8) && startsWith(buffer, ascii('VP8'), 12)) {
    return { mime: 'image/webp', ext: 'webp' };
  }
  if ((startsWith(buffer, ascii('GIF87a')) || startsWith(buffer, ascii('GIF89a'))) && buffer.length >= 13) {
    return { mime: 'image/gif', ext: 'gif' };
  }
  return undefined;
}
