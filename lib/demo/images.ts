import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';

/** The parts of a storefront `/products.json` product that the illustrations are drawn from. */
export interface DemoCatalogue {
  products: Array<{
    handle: string;
    product_type: string;
    tags: string[];
    options: Array<{ name: string; values: string[] }>;
    variants: Array<{
      id: number;
      option1: string | null;
      option2: string | null;
      option3: string | null;
    }>;
    images: Array<{ src: string; variant_ids: number[] }>;
  }>;
}

export interface DemoImage {
  contentType: 'image/png';
  /** Its own ArrayBuffer (sharp's Buffers may share a pooled one), as HTTP bodies and the simulator need. */
  body: Uint8Array<ArrayBuffer>;
}

type Product = DemoCatalogue['products'][number];
type Image = Product['images'][number];

const SIZE = 400;

export function demoCataloguePath(): string {
  return path.resolve(process.cwd(), 'lib/demo/catalogue.json');
}

let bundled: DemoCatalogue | undefined;

/** The catalogue the service ships with (`lib/demo/catalogue.json`), read once. */
export function loadDemoCatalogue(): DemoCatalogue {
  bundled ??= JSON.parse(fs.readFileSync(demoCataloguePath(), 'utf8')) as DemoCatalogue;
  return bundled;
}

// Colour names used by the demo catalogue; a variant's colour may add a pattern word
// ("Navy Stripe", "Red Buffalo Check"), so the longest known phrase inside it wins.
const PALETTE: Record<string, string> = {
  amber: '#c8812a',
  black: '#1f1f1f',
  blue: '#2f6db5',
  blush: '#e8b4b0',
  brass: '#b5923b',
  brown: '#6b4a2f',
  burgundy: '#7a2233',
  'burnt orange': '#cc5500',
  camel: '#c19a6b',
  champagne: '#e6d3a8',
  charcoal: '#3b3f45',
  chestnut: '#8a4b2a',
  chocolate: '#4e3426',
  clear: '#d6e4ea',
  cognac: '#9a4f25',
  copper: '#b8703f',
  cream: '#f1e8d2',
  'dark brown': '#4a3020',
  emerald: '#1f7a4d',
  'forest green': '#2f4f35',
  green: '#3f8a4a',
  grey: '#8c8f93',
  'heather grey': '#a3a5a8',
  indigo: '#2e3a6b',
  ivory: '#f4efe1',
  khaki: '#b5a47a',
  lavender: '#b6a6d6',
  mustard: '#d2a224',
  natural: '#d9c7a3',
  navy: '#1f2d4d',
  oatmeal: '#d8ccb4',
  olive: '#6b6b2f',
  orange: '#e8772e',
  pink: '#e89ab0',
  plum: '#5e2e55',
  red: '#c0392b',
  rust: '#a5482a',
  sage: '#9caf88',
  sand: '#d6c29a',
  silver: '#b9bdc1',
  'sky blue': '#8ec1e6',
  'slate blue': '#5a6f8f',
  steel: '#9aa1a8',
  tan: '#c4a27a',
  teal: '#2a8a8a',
  terracotta: '#c2673f',
  white: '#f7f7f5',
  yellow: '#f2c53d',
};
const UNKNOWN_COLOUR = PALETTE.grey!;

/** Hex colour for a colour name such as "Olive Plaid"; a neutral grey for names it does not know. */
export function colourHex(name: string): string {
  const words = name
    .toLowerCase()
    .split(/[\s_-]+/)
    .filter(Boolean);
  for (let n = words.length; n > 0; n--) {
    for (let i = 0; i + n <= words.length; i++) {
      const hex = PALETTE[words.slice(i, i + n).join(' ')];
      if (hex) return hex;
    }
  }
  return UNKNOWN_COLOUR;
}

/**
 * Silhouettes drawn on a 400x400 canvas, kept as data in silhouettes.json. `%F` is the product colour (or the pattern laid over
 * it), `%D` a darker shade for seams and soles, `%L` a lighter one for linings and glass.
 * `body` is drawn twice when the colour names a pattern, so only body shapes carry it.
 */
interface Silhouette {
  body: string;
  details?: string;
}

let silhouettes: Record<string, Silhouette> | undefined;

/** The drawings (`lib/demo/silhouettes.json`, data beside the code that paints them), read once. */
function loadSilhouettes(): Record<string, Silhouette> {
  if (!silhouettes) {
    const file = path.resolve(process.cwd(), 'lib/demo/silhouettes.json');
    const loaded = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, Silhouette>;
    // A product type mapped to a drawing the file lacks would quietly become a box.
    const missing = ['box', ...Object.values(SILHOUETTE_BY_TYPE)].filter((name) => !loaded[name]);
    if (missing.length > 0) throw new Error(`${file} has no ${missing.join(', ')}`);
    silhouettes = loaded;
  }
  return silhouettes;
}

const SILHOUETTE_BY_TYPE: Record<string, string> = {
  shirts: 'shirt',
  't-shirts': 'tee',
  knitwear: 'sweater',
  jackets: 'jacket',
  vests: 'vest',
  dresses: 'dress',
  pants: 'pants',
  shorts: 'shorts',
  shoes: 'shoe',
  boots: 'boot',
  sandals: 'sandal',
  hats: 'hat',
  socks: 'socks',
  accessories: 'scarf',
  bags: 'bag',
  backpacks: 'backpack',
  throws: 'throw',
  cushions: 'cushion',
  bedding: 'bed',
  towels: 'towel',
  rugs: 'rug',
  drinkware: 'mug',
  cookware: 'pan',
  'kitchen tools': 'board',
  'kitchen textiles': 'apron',
  tableware: 'plate',
  tents: 'tent',
  'sleeping gear': 'sleepingBag',
  'camp furniture': 'chair',
  'camp kitchen': 'stove',
  'water bottles': 'bottle',
  'camp lighting': 'lantern',
  lamps: 'lamp',
  hardware: 'fitting',
  lumber: 'plank',
  fasteners: 'screw',
  'rope & cord': 'rope',
  'hand tools': 'hammer',
  'power tools': 'drill',
  candles: 'candle',
  'home fragrance': 'diffuser',
};

function silhouetteFor(productType: string): Silhouette {
  const all = loadSilhouettes();
  return all[SILHOUETTE_BY_TYPE[productType.trim().toLowerCase()] ?? 'box']!;
}

function rgb(hex: string): [number, number, number] {
  const n = Number.parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

function mix(hex: string, other: string, amount: number): string {
  const a = rgb(hex);
  const b = rgb(other);
  const c = a.map((v, i) => Math.round(v + (b[i]! - v) * amount));
  return `#${c.map((v) => v.toString(16).padStart(2, '0')).join('')}`;
}

function luminance(hex: string): number {
  const [r, g, b] = rgb(hex);
  return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
}

/** A light product on a light tint would vanish, so pale colours sit on a mid-grey tint. */
function backgroundFor(hex: string): string {
  return luminance(hex) > 0.75 ? mix(hex, '#4a5058', 0.5) : mix(hex, '#ffffff', 0.75);
}

function patternFor(colourName: string, dark: string, light: string): string | undefined {
  const name = colourName.toLowerCase();
  if (/stripe/.test(name))
    return `<pattern id="p" width="40" height="40" patternUnits="userSpaceOnUse"><rect y="0" width="40" height="12" fill="${light}"/></pattern>`;
  if (/plaid|check|tartan/.test(name))
    return `<pattern id="p" width="48" height="48" patternUnits="userSpaceOnUse"><rect width="48" height="14" fill="${dark}" opacity="0.45"/><rect width="14" height="48" fill="${dark}" opacity="0.45"/><rect x="30" width="3" height="48" fill="${light}" opacity="0.6"/></pattern>`;
  if (/floral/.test(name))
    return `<pattern id="p" width="44" height="44" patternUnits="userSpaceOnUse"><circle cx="11" cy="11" r="5" fill="${light}"/><circle cx="33" cy="33" r="5" fill="${light}"/></pattern>`;
  return undefined;
}

/** The colour an image shows: its variants' Color (or Finish) option, else the product's colour tag. */
function colourNameFor(product: Product, image: Image): string {
  const index = product.options.findIndex((o) => /^(colou?r|finish)$/i.test(o.name));
  if (index >= 0 && index < 3) {
    const key = `option${index + 1}` as 'option1' | 'option2' | 'option3';
    const shown = product.variants.find((v) => image.variant_ids.includes(v.id));
    const value = (shown ?? product.variants[0])?.[key] ?? product.options[index]?.values[0];
    if (value) return value;
  }
  const tag = product.tags.find((t) => t.toLowerCase().startsWith('color:'));
  return tag ? tag.slice('color:'.length) : '';
}

function illustrationSvg(product: Product, image: Image): string {
  const colourName = colourNameFor(product, image);
  const fill = colourHex(colourName);
  const dark = luminance(fill) < 0.2 ? mix(fill, '#ffffff', 0.35) : mix(fill, '#000000', 0.35);
  const light = mix(fill, '#ffffff', 0.6);
  const pattern = patternFor(colourName, dark, light);
  const { body, details = '' } = silhouetteFor(product.product_type);
  const paint = (markup: string, f: string) =>
    markup.replaceAll('%F', f).replaceAll('%D', dark).replaceAll('%L', light);
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${SIZE}" height="${SIZE}" viewBox="0 0 ${SIZE} ${SIZE}">`,
    pattern ? `<defs>${pattern}</defs>` : '',
    `<rect width="${SIZE}" height="${SIZE}" fill="${backgroundFor(fill)}"/>`,
    '<ellipse cx="200" cy="360" rx="140" ry="18" fill="#000000" opacity="0.12"/>',
    `<g stroke="${dark}" stroke-width="3" stroke-linejoin="round">${paint(body, fill)}</g>`,
    pattern ? paint(body, 'url(#p)') : '',
    paint(details, fill),
    '</svg>',
  ].join('');
}

interface CatalogueRenderer {
  bySrc: Map<string, { product: Product; image: Image }>;
  rendered: Map<string, Promise<Uint8Array<ArrayBuffer>>>;
}

const renderers = new WeakMap<DemoCatalogue, CatalogueRenderer>();

function rendererFor(catalogue: DemoCatalogue): CatalogueRenderer {
  let renderer = renderers.get(catalogue);
  if (!renderer) {
    const bySrc = new Map<string, { product: Product; image: Image }>();
    for (const product of catalogue.products)
      for (const image of product.images) {
        const key = cdnName(image.src);
        if (key) bySrc.set(key, { product, image });
      }
    renderer = { bySrc, rendered: new Map() };
    renderers.set(catalogue, renderer);
  }
  return renderer;
}

/**
 * The image's name under the shop's `/cdn/`: `/cdn/x-1.png`, `x-1.png` (what the store
 * simulator passes its renderer), `cdn/x-1.png?v=2` and `http://shop/shops/s/cdn/x-1.png` all
 * name `x-1.png`.
 */
function cdnName(src: string): string | undefined {
  let pathname: string;
  try {
    pathname = new URL(src, 'http://shop.invalid/').pathname;
  } catch {
    return undefined;
  }
  const cdn = pathname.lastIndexOf('/cdn/');
  return cdn >= 0 ? pathname.slice(cdn + '/cdn/'.length) : pathname.replace(/^\/+/, '');
}

/**
 * The PNG illustration for one of the catalogue's image paths (`/cdn/<handle>-<n>.png`, or just
 * `<handle>-<n>.png`), or undefined when no product image has that path. Drawn once per image
 * and kept in memory.
 */
export async function renderDemoImage(
  imagePath: string,
  catalogue: DemoCatalogue = loadDemoCatalogue(),
): Promise<DemoImage | undefined> {
  const renderer = rendererFor(catalogue);
  const key = cdnName(imagePath);
  const entry = key === undefined ? undefined : renderer.bySrc.get(key);
  if (!key || !entry) return undefined;
  let png = renderer.rendered.get(key);
  if (!png) {
    png = sharp(Buffer.from(illustrationSvg(entry.product, entry.image)))
      .png()
      .toBuffer()
      .then((buffer) => new Uint8Array(buffer));
    renderer.rendered.set(key, png);
    png.catch(() => renderer.rendered.delete(key));
  }
  return { contentType: 'image/png', body: await png };
}
