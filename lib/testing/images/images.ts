import sharp from 'sharp';

export type Rgb = [number, number, number];

/** A PNG of one colour. */
export function solidImage(color: Rgb, size = 96): Promise<Buffer> {
  return sharp({
    create: {
      width: size,
      height: size,
      channels: 3,
      background: { r: color[0], g: color[1], b: color[2] },
    },
  })
    .png()
    .toBuffer();
}

/** A PNG of a shape in `color` on `background`, drawn from SVG so tests need no image files. */
export function shapeImage(
  shape: 'circle' | 'square' | 'stripes' | 'checks',
  color: Rgb,
  background: Rgb = [255, 255, 255],
  size = 96,
): Promise<Buffer> {
  const fill = `rgb(${color.join(',')})`;
  const body = {
    circle: `<circle cx="48" cy="48" r="34" fill="${fill}"/>`,
    square: `<rect x="18" y="18" width="60" height="60" fill="${fill}"/>`,
    stripes: Array.from(
      { length: 6 },
      (_, i) => `<rect x="${i * 16}" y="0" width="8" height="96" fill="${fill}"/>`,
    ).join(''),
    checks: Array.from({ length: 36 }, (_, i) =>
      (Math.floor(i / 6) + i) % 2 === 0
        ? `<rect x="${(i % 6) * 16}" y="${Math.floor(i / 6) * 16}" width="16" height="16" fill="${fill}"/>`
        : '',
    ).join(''),
  }[shape];
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="96" height="96" viewBox="0 0 96 96"><rect width="96" height="96" fill="rgb(${background.join(',')})"/>${body}</svg>`;
  return sharp(Buffer.from(svg)).resize(size, size).png().toBuffer();
}
