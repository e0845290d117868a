import sharp from 'sharp';

/**
 * Decodes an image to size x size RGB floats in [0, 1], row-major HWC. The whole image is kept
 * (letterboxed on white, transparency flattened onto white) because product photos put the
 * product in the middle of a plain background; cropping would cut it.
 */
export async function decodeRgb(bytes: Uint8Array, size: number): Promise<Float32Array> {
  const { data } = await sharp(bytes, { failOn: 'error' })
    .rotate()
    .flatten({ background: '#ffffff' })
    .resize(size, size, { fit: 'contain', background: '#ffffff' })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const out = new Float32Array(data.length);
  for (let i = 0; i < data.length; i++) out[i] = data[i]! / 255;
  return out;
}
